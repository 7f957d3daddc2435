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
