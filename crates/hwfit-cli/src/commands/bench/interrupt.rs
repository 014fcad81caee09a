//! A stopped `hwfit bench` keeps what it measured. The first SIGINT, SIGTERM or SIGHUP (Ctrl-C, a
//! time limit's `timeout`) is noted and a second one ends the process at once: the runner in
//! progress ends — a child process is killed, in-process graphs stop between cases — and the run
//! stores, writes and reports the records measured so far, then fails saying it was interrupted.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Once};
use std::time::Duration;

static STOPPED: AtomicBool = AtomicBool::new(false);

/// Exit status after a second signal (128 + SIGINT, as shells report Ctrl-C).
const SECOND_SIGNAL_EXIT: i32 = 130;

/// How often a running child is checked for its end or a stop.
const POLL: Duration = Duration::from_millis(20);

/// How long a killed child's output is waited for (a grandchild it left may hold its pipes).
const OUTPUT_GRACE: Duration = Duration::from_secs(2);

/// Starts noting signals (once per process). Where no handler can be installed the signals keep
/// their default behaviour: they end hwfit.
pub fn watch() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if STOPPED.swap(true, Ordering::SeqCst) {
                std::process::exit(SECOND_SIGNAL_EXIT);
            }
            crate::output::note("stopping: the records measured so far are kept (a second signal ends hwfit at once)");
        });
    });
}

/// Whether a signal asked the run to stop.
pub fn stopped() -> bool {
    STOPPED.load(Ordering::SeqCst)
}

/// A child process's end: its status and what it printed.
pub struct Finished {
    /// How it ended.
    pub status: ExitStatus,
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error.
    pub stderr: Vec<u8>,
}

/// Runs `command` until it ends, or until a signal stops the run (the child is then killed); its
/// output is read while it runs.
pub fn run_to_end(command: &mut Command) -> std::io::Result<Finished> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let (status, wait) = loop {
        if let Some(status) = child.try_wait()? {
            break (status, None);
        }
        if stopped() {
            let _ = child.kill();
            break (child.wait()?, Some(OUTPUT_GRACE));
        }
        std::thread::sleep(POLL);
    };
    let take = |rx: mpsc::Receiver<Vec<u8>>| match wait {
        None => rx.recv().unwrap_or_default(),
        Some(grace) => rx.recv_timeout(grace).unwrap_or_default(),
    };
    Ok(Finished {
        status,
        stdout: take(stdout),
        stderr: take(stderr),
    })
}

/// Reads `pipe` to its end on a thread; the bytes arrive on the returned channel.
fn drain(pipe: Option<impl Read + Send + 'static>) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            let _ = pipe.read_to_end(&mut bytes);
        }
        let _ = tx.send(bytes);
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_runs_to_its_end_with_its_output() {
        let done = run_to_end(Command::new("sh").args(["-c", "echo out; echo err >&2; exit 3"])).unwrap();
        assert_eq!(done.status.code(), Some(3));
        assert_eq!(done.stdout, b"out\n");
        assert_eq!(done.stderr, b"err\n");
    }
}
