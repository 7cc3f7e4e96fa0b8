//! Connections: a bounded number of them, each served by hyper with a deadline for its
//! request headers and for every write of its answer.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio::time::Sleep;

/// The bounds of the accept loop.
pub(crate) struct Limits {
    pub(crate) max_connections: usize,
    pub(crate) io_timeout: Duration,
}

/// Accepts connections for ever, at most `max_connections` open at once, and serves each
/// with `app` on HTTP/1.1.
pub(crate) async fn accept_loop(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    limits: Limits,
) -> io::Result<()> {
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    loop {
        let permit = open.clone().acquire_owned().await.expect("the semaphore is never closed");
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            // Out of file descriptors and the like: wait a little rather than spin.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(WriteDeadline::new(stream, limits.io_timeout));
        let service = TowerToHyperService::new(app.clone());
        let timeout = limits.io_timeout;
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            // Half-closed: a client may end its side once it has sent the request.
            http.timer(TokioTimer::new()).header_read_timeout(timeout).half_close(true);
            let _ = http.serve_connection(io, service).await;
            drop(permit);
        });
    }
}

/// A socket whose writes fail when the peer has not taken any byte for `timeout`, so a
/// client that stops reading an answer is disconnected and the answer freed.
struct WriteDeadline {
    inner: TcpStream,
    timeout: Duration,
    /// Running while a write waits for the peer; reset by any progress.
    stalled: Option<Pin<Box<Sleep>>>,
}

impl WriteDeadline {
    fn new(inner: TcpStream, timeout: Duration) -> WriteDeadline {
        WriteDeadline { inner, timeout, stalled: None }
    }

    /// `poll` of a write, with the deadline.
    fn deadline<T>(
        &mut self,
        cx: &mut Context<'_>,
        poll: impl FnOnce(Pin<&mut TcpStream>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if let Poll::Ready(r) = poll(Pin::new(&mut self.inner), cx) {
            self.stalled = None;
            return Poll::Ready(r);
        }
        let timeout = self.timeout;
        let sleep = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(sleep.as_mut().poll(cx));
        self.stalled = None;
        Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the client stopped reading")))
    }
}

impl AsyncRead for WriteDeadline {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for WriteDeadline {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().deadline(cx, |s, cx| s.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().deadline(cx, |s, cx| s.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.get_mut().deadline(cx, AsyncWrite::poll_flush)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}
