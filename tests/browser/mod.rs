//! A headless Chromium driven through chromedriver (WebDriver, with `fantoccini`): the
//! explorer's tests and its first-paint measurement open pages in it.
//!
//! Chromium runs as the CI user (root), so it needs `--no-sandbox`; every flag that would
//! reach the network is off, and each browser gets a fresh profile directory.

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder};
use serde_json::json;

/// The flags of a headless Chromium that touches nothing but the page.
const FLAGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1000",
];

/// The first of `names` found on `PATH`.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).flat_map(|dir| names.iter().map(move |n| dir.join(n))).find(|p| p.is_file())
}

/// Chromium and chromedriver, if both are installed.
pub fn programs() -> Option<(PathBuf, PathBuf)> {
    Some((on_path(&["chromium", "chromium-browser", "google-chrome"])?, on_path(&["chromedriver"])?))
}

/// chromedriver with a Chromium session; dropping it ends both (the driver runs in its own
/// process group, which the browser joins, so the whole group is stopped).
pub struct Browser {
    pub client: Client,
    driver: Child,
    profile: PathBuf,
}

impl Browser {
    /// Starts chromedriver on a free local port and opens a session.
    pub async fn start(chromium: &Path, chromedriver: &Path, scratch: &Path) -> Browser {
        let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).unwrap().local_addr().unwrap().port();
        let driver = {
            use std::os::unix::process::CommandExt;
            Command::new(chromedriver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("start chromedriver")
        };
        let started = Instant::now();
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "chromedriver did not listen on port {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = scratch.join(format!("chromium-profile-{port}"));
        let _ = std::fs::remove_dir_all(&profile);
        let mut args: Vec<String> = FLAGS.iter().map(|f| f.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
        });
        let serde_json::Value::Object(capabilities) = capabilities else { unreachable!() };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = ClientBuilder::new(connector)
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("open a Chromium session through chromedriver");
        Browser { client, driver, profile }
    }

    /// Opens a local file and waits until the explorer has drawn its first view.
    pub async fn open(&self, page: &Path) {
        let url = format!("file://{}", page.canonicalize().unwrap().display());
        self.client.goto(&url).await.unwrap();
        self.wait_until("document.body.dataset.ready === 'true'").await;
    }

    /// Evaluates `expression` in the page.
    pub async fn eval(&self, expression: &str) -> serde_json::Value {
        self.client.execute(&format!("return {expression};"), vec![]).await.unwrap()
    }

    /// Polls a JavaScript condition for up to 20 seconds.
    pub async fn wait_until(&self, condition: &str) {
        let started = Instant::now();
        while self.eval(condition).await != json!(true) {
            assert!(started.elapsed() < Duration::from_secs(20), "timed out waiting for: {condition}");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// Ends the session (the browser quits) and the driver.
    pub async fn quit(self) {
        let Browser { client, .. } = &self;
        let _ = client.clone().close().await;
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // `--` keeps procps' kill from reading the negative process group as an option (it
        // then signals every process of the user, -1).
        let _ = Command::new("kill").args(["-s", "TERM", "--"]).arg(format!("-{}", self.driver.id())).status();
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// A runtime for the WebDriver client.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}
