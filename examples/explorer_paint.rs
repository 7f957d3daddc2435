//! Measures explorer pages in a headless Chromium: file size, first contentful paint, the
//! moment the tree view is drawn, and the time to open the largest state below the root and
//! to find a secret (its path opened and highlighted).
//!
//! ```sh
//! mmtree solve -n 5 -k 8 -o m58.mmt && mmtree html m58.mmt -o m58.html
//! cargo run --release --example explorer_paint -- m58.html [more.html ...]
//! ```
//!
//! Each page is loaded 5 times in a fresh tab; the medians are printed (milliseconds from the
//! start of navigation, as the browser's Performance API reports them).

#[path = "../tests/browser/mod.rs"]
mod browser;

use std::path::Path;

use serde_json::Value;

/// Median of a few samples.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let pages: Vec<String> = std::env::args().skip(1).collect();
    if pages.is_empty() {
        eprintln!("usage: explorer_paint PAGE.html [PAGE.html ...]");
        std::process::exit(2);
    }
    let Some((chromium, chromedriver)) = browser::programs() else {
        eprintln!("explorer_paint needs chromium and chromedriver (apt-get install chromium chromium-driver)");
        std::process::exit(1);
    };
    let scratch = std::env::temp_dir().join(format!("explorer-paint-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    browser::runtime().block_on(async {
        let browser = browser::Browser::start(&chromium, &chromedriver, &scratch).await;
        println!("| page | bytes | nodes | first contentful paint | tree drawn | open largest part | find a secret |");
        println!("|---|--:|--:|--:|--:|--:|--:|");
        for page in &pages {
            let bytes = std::fs::metadata(page).unwrap().len();
            let (mut paint, mut ready, mut open, mut find) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let mut nodes = Value::Null;
            for _ in 0..5 {
                browser.open(Path::new(page)).await;
                browser.wait_until("performance.getEntriesByName('first-contentful-paint').length > 0").await;
                let t = browser
                    .eval(
                        "[performance.getEntriesByName('first-contentful-paint')[0].startTime, \
                          performance.getEntriesByName('mmtree-tree-ready')[0].startTime, \
                          JSON.parse(document.getElementById('tree-meta').textContent).nodes]",
                    )
                    .await;
                paint.push(t[0].as_f64().unwrap());
                ready.push(t[1].as_f64().unwrap());
                nodes = t[2].clone();
                // Open the root's largest part, then find the secret its guess names (its path
                // is drawn and highlighted): both run in the click or submit handler, so they
                // are timed there.
                let t = browser
                    .eval(
                        "(() => { const rows = Array.from(document.querySelectorAll('#tree > li > ul > li')); \
                         const size = r => Number((r.querySelector('.size') || {textContent: '0'}).textContent.split(' ')[0]); \
                         const big = rows.reduce((a, b) => size(b) > size(a) ? b : a); \
                         let t0 = performance.now(); big.querySelector('.row').click(); const open = performance.now() - t0; \
                         const input = document.getElementById('secret'); \
                         input.value = big.querySelector('.guess b').textContent; \
                         t0 = performance.now(); document.getElementById('search').requestSubmit(); \
                         return [open, performance.now() - t0]; })()",
                    )
                    .await;
                open.push(t[0].as_f64().unwrap());
                find.push(t[1].as_f64().unwrap());
            }
            println!(
                "| {} | {bytes} | {nodes} | {:.0} ms | {:.0} ms | {:.1} ms | {:.1} ms |",
                Path::new(page).file_name().unwrap().to_string_lossy(),
                median(paint),
                median(ready),
                median(open),
                median(find)
            );
        }
        browser.quit().await;
    });
    let _ = std::fs::remove_dir_all(&scratch);
}
