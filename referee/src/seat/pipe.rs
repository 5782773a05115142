//! The referee's end of a pipe a bot writes to (its stdout, its stderr), read two ways: what
//! is there now, without waiting ([`PipeRead::read_now`]), and the next bytes, waiting for
//! them ([`PipeRead::read_wait`]).
//!
//! A [`Pipe`] is watched by tokio's reactor from its first wait on. Once its reader finds that
//! the bot drips ([`PipeRead::unwatch`]: the pace held a read, or bytes came on stdout outside
//! a decision), it is watched only while a read waits for it. Watched all the time, every
//! `write` of the bot wakes the referee's thread, read or not (the kernel wakes an epoll
//! watcher at each write to a pipe): a bot writing one byte at a time while no request is
//! pending, or while its reads are paced ([`super::pace`]), would cost the referee a wake-up
//! per byte. Unwatched, the bytes wait in the pipe for the next read, and cost nothing until
//! then. Watching for one wait costs two system calls (`epoll_ctl` to add and to remove) and,
//! on a machine where the worker and its bots move between cores, a turn of the reactor more:
//! a bot that writes its replies whole never pays it.

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncReadExt, DuplexStream, Interest, ReadBuf};

/// A byte stream from a bot, read without waiting or waiting.
pub(crate) trait PipeRead {
    /// Reads into `buf` what is there now: `Ok(0)` at the end of the stream, an error of kind
    /// [`io::ErrorKind::WouldBlock`] when nothing is.
    fn read_now(&mut self, buf: &mut [u8]) -> io::Result<usize>;

    /// Reads into `buf` what comes next, waiting for it: `Ok(0)` at the end of the stream.
    /// Cancel-safe: nothing is read unless it is returned.
    fn read_wait(&mut self, buf: &mut [u8]) -> impl Future<Output = io::Result<usize>>;

    /// Says that the bot drips on this stream: from now on it is watched only while a read
    /// waits for it.
    fn unwatch(&mut self) {}
}

/// The referee's end of a pipe from a bot, non-blocking: watched by the reactor from its first
/// wait until [`PipeRead::unwatch`], then only while [`PipeRead::read_wait`] waits.
#[derive(Debug)]
pub struct Pipe {
    /// The descriptor, unwatched (exactly one of `plain` and `watched` holds it).
    plain: Option<OwnedFd>,
    /// The descriptor, registered with the reactor.
    watched: Option<AsyncFd<OwnedFd>>,
    /// Whether the bot was found dripping: the pipe is watched only during a wait.
    per_wait: bool,
}

impl Pipe {
    /// The pipe `fd`, made non-blocking.
    ///
    /// # Errors
    /// When its flags cannot be read or set.
    pub fn new(fd: OwnedFd) -> io::Result<Self> {
        let flags = rustix::fs::fcntl_getfl(&fd)?;
        rustix::fs::fcntl_setfl(&fd, flags | rustix::fs::OFlags::NONBLOCK)?;
        Ok(Pipe {
            plain: Some(fd),
            watched: None,
            per_wait: false,
        })
    }

    fn fd(&self) -> BorrowedFd<'_> {
        match (&self.plain, &self.watched) {
            (Some(fd), _) => fd.as_fd(),
            (None, Some(watched)) => watched.get_ref().as_fd(),
            (None, None) => unreachable!("a pipe holds its descriptor one way or the other"),
        }
    }

    /// Registers the descriptor with the reactor, if it is not.
    fn watch(&mut self) -> io::Result<&AsyncFd<OwnedFd>> {
        if let Some(fd) = self.plain.take() {
            // SAFETY: the `OwnedFd` is moved into the registration, which keeps it open and
            // the same until `into_inner` gives it back.
            match unsafe { AsyncFd::register_with_interest(fd, Interest::READABLE) } {
                Ok(watched) => self.watched = Some(watched),
                Err(failed) => {
                    let (fd, e) = failed.into_parts();
                    self.plain = Some(fd);
                    return Err(e);
                }
            }
        }
        Ok(self.watched.as_ref().expect("registered just now"))
    }

    /// Takes the descriptor off the reactor, if it is on it.
    fn stop_watching(&mut self) {
        if let Some(watched) = self.watched.take() {
            self.plain = Some(watched.into_inner());
        }
    }

    /// Waits until the pipe is readable, and reads it.
    async fn wait_and_read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let watched = self.watch()?;
        loop {
            let mut ready = watched.readable().await?;
            match ready.try_io(|fd| Ok(rustix::io::read(fd.get_ref(), &mut *buf)?)) {
                Ok(Err(e)) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(read) => return read,
                // Not readable after all: `try_io` cleared the readiness; wait again.
                Err(_would_block) => {}
            }
        }
    }
}

impl AsRawFd for Pipe {
    fn as_raw_fd(&self) -> RawFd {
        self.fd().as_raw_fd()
    }
}

impl PipeRead for Pipe {
    /// One `read(2)`. A pipe found dripping that a wait given up (its future dropped) left on
    /// the reactor is taken off it.
    fn read_now(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.per_wait {
            self.stop_watching();
        }
        Ok(rustix::io::read(self.fd(), buf)?)
    }

    /// Watches the pipe until it is readable, and reads it: one `read(2)` when it was readable
    /// already, else the wait. A pipe found dripping is taken off the reactor after the wait.
    async fn read_wait(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.wait_and_read(buf).await;
        if self.per_wait {
            self.stop_watching();
        }
        read
    }

    fn unwatch(&mut self) {
        self.per_wait = true;
        self.stop_watching();
    }
}

impl PipeRead for DuplexStream {
    /// One poll of the in-memory pipe, outside tokio's cooperative budget (which could
    /// otherwise say "not now" with bytes there).
    fn read_now(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut read = ReadBuf::new(buf);
        let once = std::future::poll_fn(|cx: &mut Context<'_>| {
            Poll::Ready(Pin::new(&mut *self).poll_read(cx, &mut read))
        });
        let polled = futures::FutureExt::now_or_never(tokio::task::unconstrained(once));
        match polled {
            Some(Poll::Ready(Ok(()))) => Ok(read.filled().len()),
            Some(Poll::Ready(Err(e))) => Err(e),
            _ => Err(io::ErrorKind::WouldBlock.into()),
        }
    }

    async fn read_wait(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.read(buf).await
    }
}

/// An in-memory pipe that counts the reads that took bytes, for the tests of the pace.
#[cfg(test)]
pub(crate) struct CountedReads {
    /// The pipe read.
    pub pipe: DuplexStream,
    /// Reads that took bytes so far.
    pub reads: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

#[cfg(test)]
impl CountedReads {
    /// The reader's end of an in-memory pipe of 64 KiB, as a Linux pipe holds, and the
    /// writer's.
    pub fn pipe() -> (Self, DuplexStream) {
        let (writer, reader) = tokio::io::duplex(64 << 10);
        let counted = CountedReads {
            pipe: reader,
            reads: Default::default(),
        };
        (counted, writer)
    }

    fn counted(&self, read: io::Result<usize>) -> io::Result<usize> {
        if matches!(read, Ok(n) if n > 0) {
            self.reads
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        read
    }
}

#[cfg(test)]
impl PipeRead for CountedReads {
    fn read_now(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.pipe.read_now(buf);
        self.counted(read)
    }

    async fn read_wait(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.pipe.read_wait(buf).await;
        self.counted(read)
    }
}

#[cfg(test)]
impl Pipe {
    /// A pipe of the system: the referee's end, and the bot's.
    pub(crate) fn pair() -> (Pipe, std::fs::File) {
        use std::os::fd::FromRawFd;
        let mut fds = [0; 2];
        // SAFETY: pipe2 writes two descriptors, each owned once below.
        assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
        let (reader, writer) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        (Pipe::new(reader).unwrap(), std::fs::File::from(writer))
    }

    /// Whether the reactor watches it now.
    pub(crate) fn is_watched(&self) -> bool {
        self.watched.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[tokio::test]
    async fn a_pipe_reads_what_is_there_now_or_waits_for_it() {
        let (mut pipe, mut writer) = Pipe::pair();
        let mut buf = [0u8; 16];
        let empty = pipe.read_now(&mut buf).unwrap_err();
        assert_eq!(empty.kind(), io::ErrorKind::WouldBlock);
        writer.write_all(b"now").unwrap();
        assert_eq!(pipe.read_now(&mut buf).unwrap(), 3);
        let late = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(20));
            writer.write_all(b"later").unwrap();
        });
        assert_eq!(pipe.read_wait(&mut buf).await.unwrap(), 5);
        assert_eq!(&buf[..5], b"later");
        late.join().unwrap();
        assert_eq!(pipe.read_wait(&mut buf).await.unwrap(), 0, "the end");
    }

    #[tokio::test]
    async fn a_pipe_stays_watched_until_unwatched_then_is_watched_only_during_a_wait() {
        let (mut pipe, mut writer) = Pipe::pair();
        let mut buf = [0u8; 16];
        assert!(pipe.watched.is_none(), "unwatched before its first wait");
        writer.write_all(b"one").unwrap();
        assert_eq!(pipe.read_wait(&mut buf).await.unwrap(), 3);
        assert!(pipe.watched.is_some(), "an honest pipe stays watched");
        pipe.unwatch();
        assert!(pipe.watched.is_none());
        writer.write_all(b"two").unwrap();
        assert_eq!(pipe.read_wait(&mut buf).await.unwrap(), 3);
        assert!(pipe.watched.is_none(), "off again after the wait");
        let given_up = tokio::time::timeout(
            std::time::Duration::from_millis(10),
            pipe.read_wait(&mut buf),
        )
        .await;
        assert!(given_up.is_err());
        assert!(pipe.watched.is_some(), "a wait given up left it on");
        assert!(pipe.read_now(&mut buf).is_err(), "nothing there");
        assert!(pipe.watched.is_none(), "the next read takes it off");
    }

    #[tokio::test]
    async fn a_wait_given_up_loses_nothing_and_the_pipe_stays_open() {
        let (mut pipe, mut writer) = Pipe::pair();
        let mut buf = [0u8; 16];
        let waited = tokio::time::timeout(
            std::time::Duration::from_millis(10),
            pipe.read_wait(&mut buf),
        )
        .await;
        assert!(waited.is_err());
        writer.write_all(b"kept").unwrap();
        assert_eq!(pipe.read_now(&mut buf).unwrap(), 4, "nothing was lost");
        // Registered again for the next wait (a second registration of a watched descriptor
        // would fail with EEXIST).
        writer.write_all(b"again").unwrap();
        assert_eq!(pipe.read_wait(&mut buf).await.unwrap(), 5);
    }
}
