//! Long work off the interpreter: it runs on a worker thread with the GIL released, while
//! the calling thread wakes every `POLL` to check for signals (Ctrl-C raises
//! `KeyboardInterrupt`) and report progress.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::failed;

/// How often the calling thread checks for signals and reports progress.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread; every `POLL`, and once at the end, calls `tick` with the
/// GIL held after checking for signals. An exception from either sets `stop` (which `work`
/// should poll to end early), waits for `work`, and is raised.
pub fn run<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
    mut tick: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T> {
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || {
            let result = work();
            caller.unpark();
            result
        });
        let mut raised: Option<PyErr> = None;
        loop {
            let finished = worker.is_finished();
            if raised.is_none() {
                if let Err(e) = py.check_signals().and_then(|()| tick(py)) {
                    stop.store(true, Ordering::Relaxed);
                    raised = Some(e);
                }
            }
            if finished {
                break;
            }
            py.detach(|| std::thread::park_timeout(POLL));
        }
        let result = worker.join().map_err(|_| failed("internal error: the computation panicked"))?;
        match raised {
            Some(e) => Err(e),
            None => Ok(result),
        }
    })
}
