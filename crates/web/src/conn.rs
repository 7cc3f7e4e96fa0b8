//! Connections: a bounded number of them, each served by hyper with a deadline for its
//! request headers and for every write of its answer, and with hyper's own answers to
//! unreadable requests given a JSON body like every other error.

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
            // Not half-closed: a client that ends its side while its request is being
            // answered has gone away, and hyper then drops the handler, and with it the
            // solver's process (killed on drop), instead of solving on to the time limit.
            http.timer(TokioTimer::new()).header_read_timeout(timeout);
            let _ = http.serve_connection(io, service).await;
            drop(permit);
        });
    }
}

/// hyper answers a request it cannot parse by itself, before any handler sees it, with an
/// empty body: the status line it writes, and the JSON error sent instead.
const PARSE_ERRORS: [(&[u8], &str, &str); 3] = [
    (
        b"HTTP/1.1 400 Bad Request\r\n",
        "400 Bad Request",
        "the request is not valid HTTP/1.1 (its request line or a header cannot be read)",
    ),
    (b"HTTP/1.1 414 URI Too Long\r\n", "414 URI Too Long", "the request's address is too long"),
    (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n",
        "431 Request Header Fields Too Large",
        "the request's headers are too large",
    ),
];

/// The answer to send in place of `head`, when `head` is hyper's own bodiless answer to a
/// request it could not parse.
fn replace_parse_error(head: &[u8]) -> Option<Vec<u8>> {
    let (_, status, message) = PARSE_ERRORS.iter().find(|(line, ..)| head.starts_with(line))?;
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let headers = head[..end].to_ascii_lowercase();
    // Only a head with no body; a handler's own answer with this status has one.
    if !headers.windows(19).any(|w| w == b"\r\ncontent-length: 0") || end + 4 != head.len() {
        return None;
    }
    let body = serde_json::json!({ "error": message }).to_string() + "\n";
    Some(
        format!(
            "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

/// A socket whose writes fail when the peer has not taken any byte for `timeout`, so a
/// client that stops reading an answer is disconnected and the answer freed; it also puts
/// a JSON body into hyper's own answers to unparsable requests ([`replace_parse_error`]).
struct WriteDeadline {
    inner: TcpStream,
    timeout: Duration,
    /// Running while a write waits for the peer; reset by any progress.
    stalled: Option<Pin<Box<Sleep>>>,
    /// Bytes of a replaced answer not yet taken by the socket.
    pending: Vec<u8>,
}

impl WriteDeadline {
    fn new(inner: TcpStream, timeout: Duration) -> WriteDeadline {
        WriteDeadline { inner, timeout, stalled: None, pending: Vec::new() }
    }

    /// Writes what is left of a replaced answer; ready once it is all written.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            let r = self.deadline(cx, |s, cx| s.poll_write(cx, &pending));
            self.pending = pending;
            match ready!(r) {
                Ok(0) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Ok(n) => drop(self.pending.drain(..n)),
                Err(e) => return Poll::Ready(Err(e)),
            }
        }
        Poll::Ready(Ok(()))
    }

    /// `poll_write` of `buf`, which is the whole of hyper's next write.
    fn write(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        if let Some(answer) = replace_parse_error(buf) {
            self.pending = answer;
            // The replaced bytes count as written; the answer goes out in `drain`.
            return match self.drain(cx) {
                Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
                _ => Poll::Ready(Ok(buf.len())),
            };
        }
        self.deadline(cx, |s, cx| s.poll_write(cx, buf))
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
        self.get_mut().write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        match bufs.iter().find(|b| !b.is_empty()) {
            // A lone head, as hyper writes its own answers: look at it as a plain write.
            Some(first) if bufs.iter().filter(|b| !b.is_empty()).count() == 1 => {
                this.write(cx, first)
            }
            _ => this.deadline(cx, |s, cx| s.poll_write_vectored(cx, bufs)),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        this.deadline(cx, AsyncWrite::poll_flush)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.drain(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::replace_parse_error;

    #[test]
    fn only_hypers_bodiless_parse_error_answers_are_replaced() {
        let head =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let answer = String::from_utf8(replace_parse_error(head).unwrap()).unwrap();
        assert!(answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        let (headers, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(headers.contains(&format!("content-length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["error"], "the request's headers are too large");
        // A handler's own 400 has a body, and a 200 is never touched.
        let own = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n";
        assert!(replace_parse_error(own).is_none());
        assert!(replace_parse_error(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        // A head followed by body bytes in the same write is not a bodiless answer.
        let more = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\nx";
        assert!(replace_parse_error(more).is_none());
    }
}
