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
        Some(_) => format!("{{elapsed_precise}} [{{bar:24}}] {{bytes}}/{{total_bytes}} {what}"),
        None => format!("{{elapsed_precise}} {{spinner}} {{bytes}} {what} ({{bytes_per_sec}})"),
    };
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}
