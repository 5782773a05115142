//! The referee's end of a pipe a bot writes to (its stdout, its stderr), read two ways: what
//! is there now, without waiting ([`PipeRead::read_now`]), and the next bytes, waiting for
//! them ([`PipeRead::read_wait`]).
//!
//! A [`Pipe`] is watched by tokio's reactor only while a read waits for it. Watched all the
//! time, as a tokio `ChildStdout` is, every `write` of the bot wakes the referee's thread, read
//! or not (the kernel wakes an epoll watcher at each write to a pipe): a bot writing one byte at
//! a time while no request is pending, or while its reads are paced ([`super::pace`]), would
//! cost the referee a wake-up per byte. Unwatched, the bytes wait in the pipe for the next read,
//! and cost nothing until then. Registering for a wait costs two system calls
//! (`epoll_ctl` to add and to remove), paid only when the bytes are not there already.

use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
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
}

/// The referee's end of a pipe from a bot, non-blocking, watched by the reactor only while
/// [`PipeRead::read_wait`] waits.
#[derive(Debug)]
pub struct Pipe(OwnedFd);

impl Pipe {
    /// The pipe `fd`, made non-blocking.
    ///
    /// # Errors
    /// When its flags cannot be read or set.
    pub fn new(fd: OwnedFd) -> io::Result<Self> {
        let flags = rustix::fs::fcntl_getfl(&fd)?;
        rustix::fs::fcntl_setfl(&fd, flags | rustix::fs::OFlags::NONBLOCK)?;
        Ok(Pipe(fd))
    }
}

impl AsRawFd for Pipe {
    fn as_raw_fd(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}

impl PipeRead for Pipe {
    /// One `read(2)`.
    fn read_now(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Ok(rustix::io::read(&self.0, buf)?)
    }

    /// Watches the pipe until it is readable, and reads it: one `read(2)` when it was readable
    /// already (the kernel says so when the pipe is added), else the wait.
    async fn read_wait(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // SAFETY: the descriptor is borrowed from `self`, so it stays open, the same, for as
        // long as the registration (which ends, `epoll_ctl` removing it, when it is dropped).
        let watched =
            unsafe { AsyncFd::register_with_interest(self.0.as_fd(), Interest::READABLE) }
                .map_err(|e| e.into_parts().1)?;
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
mod tests {
    use super::*;
    use std::io::Write;

    fn pipe() -> (Pipe, std::fs::File) {
        use std::os::fd::FromRawFd;
        let mut fds = [0; 2];
        // SAFETY: pipe2 writes two descriptors, each owned once below.
        assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
        let (reader, writer) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        (Pipe::new(reader).unwrap(), std::fs::File::from(writer))
    }

    #[tokio::test]
    async fn a_pipe_reads_what_is_there_now_or_waits_for_it() {
        let (mut pipe, mut writer) = pipe();
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
    async fn a_wait_given_up_leaves_the_pipe_unwatched_and_open() {
        let (mut pipe, mut writer) = pipe();
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
