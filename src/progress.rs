//! Progress bars on a terminal, silence when piped or `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar counting `len` units; hidden unless stderr is a terminal and `quiet` is off.
pub fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    let target = if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
    let bar = ProgressBar::with_draw_target(Some(len), target);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} (eta {{eta}})"))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A bar counting the bytes of a file of `len` bytes as it is read (a spinner counting them
/// when `len` is `None`, e.g. a file being written); hidden as [`bar`] is.
pub fn bytes(len: Option<u64>, what: &str, quiet: bool) -> ProgressBar {
    let target = if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
    let bar = ProgressBar::with_draw_target(len, target);
    let template = match len {
        Some(_) => "{elapsed_precise} [{bar:24}] {bytes}/{total_bytes} {msg}",
        None => "{elapsed_precise} {spinner} {bytes} {msg} ({bytes_per_sec})",
    };
    bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar.set_message(what.to_string());
    bar
}

/// A reader that counts its bytes on `bar` and, at the end of its input, shows `then` with
/// the clock still running: the work that follows a read (a checkpoint's entries proven,
/// 0.5 s after 147 MB were read in 7 s) grows with the file, and a full bar that stops
/// looked like a hang.
pub struct ReadThen<R> {
    inner: R,
    bar: ProgressBar,
    then: Option<String>,
}

impl<R> ReadThen<R> {
    pub fn new(inner: R, bar: ProgressBar, then: &str) -> ReadThen<R> {
        ReadThen { inner, bar, then: Some(then.to_string()) }
    }
}

impl<R: std::io::Read> std::io::Read for ReadThen<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        if n == 0 && !buf.is_empty() {
            if let Some(then) = self.then.take() {
                self.bar.set_message(then);
                self.bar.enable_steady_tick(std::time::Duration::from_millis(100));
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use super::*;

    #[test]
    fn a_read_counts_its_bytes_and_names_what_follows_at_the_end() {
        let bar = bytes(Some(5), "of checkpoint read", true);
        let mut reader = ReadThen::new(&b"hello"[..], bar.clone(), "proving entries");
        let mut three = [0u8; 3];
        reader.read_exact(&mut three).expect("three bytes");
        assert_eq!((bar.position(), bar.message().as_str()), (3, "of checkpoint read"));
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).expect("the rest");
        assert_eq!((bar.position(), bar.message().as_str()), (5, "proving entries"));
    }
}
