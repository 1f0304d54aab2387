//! Serving MCP over a byte stream of newline-delimited JSON-RPC: stdin and stdout
//! ([`Server::serve_stdio`]), or any reader and writer ([`Server::serve_stream`]).
//!
//! The transport is this crate's own, not rmcp's `AsyncRwTransport`, for two reasons
//! (rmcp 3.11, `transport/async_rw.rs`, `AsyncRwTransport::receive`):
//!
//! - **Every line is answered.** rmcp drops a line that is not JSON without a word (so a
//!   request holding a lone UTF-16 surrogate, which serde cannot read, is never answered and
//!   its client waits forever), and answers JSON that is not a message with an id-less
//!   `-32600`. Here each line is read by `jsonrpc::read`, as HTTP bodies are: what is not a
//!   message gets its `-32700`, `-32600` or `-32602`, by its own id when it has one.
//! - **The requests in flight are bounded.** rmcp reads on whatever the client sends, and its
//!   service loop (`service.rs`, `serve_inner`) spawns a task for each request at once, so a
//!   client pipelining 10,000 requests has 10,000 in memory together. Here a request holds
//!   one of [`Options::max_in_flight`] slots from the moment it is read until its handler
//!   has finished and its answer is written (a cancelled one, whose answer rmcp drops, until
//!   its handler has finished); while every slot is held, nothing more is read, not even a
//!   notification, and the client's writes wait in the pipe.
//!
//! It also carries what rmcp's types cannot of 2025-11-25 tasks, for a server with task tools
//! ([`crate::tasks`]): a request for a task is handed on whole, and `initialize` and
//! `tools/list` are written with `capabilities.tasks` and `execution.taskSupport`.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, GetExtensions as _, RequestId, ServerJsonRpcMessage,
};
use rmcp::service::{RoleServer, ServerInitializeError, ServiceExt as _};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::{OwnedMutexGuard, OwnedSemaphorePermit, Semaphore};

use crate::request::InFlight;
use crate::server::{Dispatch, Server};
use crate::{DEFAULT_MAX_IN_FLIGHT, jsonrpc};

/// The longest line read by default: 16 MiB, rmcp's own limit, so a message that fits over
/// rmcp's other transports fits here.
pub const DEFAULT_MAX_LINE_BYTES: usize = 16 << 20;

/// How many bytes of a line too long to read are kept, to find the id to answer it by.
const KEPT_OF_A_LONG_LINE: usize = 4096;

/// How a server reads and answers a byte stream.
#[derive(Debug, Clone)]
pub struct Options {
    max_in_flight: usize,
    max_line_bytes: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
        }
    }
}

impl Options {
    /// The requests handled at once, [`DEFAULT_MAX_IN_FLIGHT`] by default (at least 1, at
    /// most tokio's `Semaphore::MAX_PERMITS`).
    /// A request counts from when it is read until its handler has finished and its answer
    /// is written; while this many do, the server reads nothing more, so its memory stays
    /// the same however many requests a client sends ahead.
    pub fn max_in_flight(mut self, requests: usize) -> Self {
        self.max_in_flight = requests.clamp(1, Semaphore::MAX_PERMITS);
        self
    }

    /// The longest line read, [`DEFAULT_MAX_LINE_BYTES`] by default; a longer one is not
    /// read and is answered `-32600`.
    pub fn max_line_bytes(mut self, bytes: usize) -> Self {
        self.max_line_bytes = bytes.max(1);
        self
    }
}

impl<D: Dispatch> Server<D> {
    /// Serves MCP over stdin and stdout until the client disconnects, with the default
    /// [`Options`]. Stdin closing before any client spoke is a normal end, not an error.
    pub async fn serve_stdio(self) -> io::Result<()> {
        self.serve_stdio_with(Options::default()).await
    }

    /// [`Server::serve_stdio`] with `options`.
    pub async fn serve_stdio_with(self, options: Options) -> io::Result<()> {
        self.serve_stream(tokio::io::stdin(), tokio::io::stdout(), options)
            .await
    }

    /// Serves MCP over newline-delimited JSON-RPC read from `read` and written to `write`
    /// until `read` ends; see the [module documentation](self).
    pub async fn serve_stream<R, W>(self, read: R, write: W, options: Options) -> io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let connection = self.for_connection();
        let (tasks, id) = (Arc::clone(connection.tasks()), connection.connection_id());
        let publish = connection.task_publish().map(Arc::new);
        #[cfg(feature = "telemetry")]
        let open = connection
            .instruments()
            .map(crate::telemetry::PipeOpen::new);
        let running = match connection
            .serve(LineTransport::new(read, write, &options, publish))
            .await
        {
            Ok(running) => running,
            Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(io::Error::other(e)),
        };
        let ended = running.waiting().await;
        #[cfg(feature = "telemetry")]
        if let Some(open) = open {
            open.ended();
        }
        // The connection's tasks have nobody left to ask for their results.
        tasks.forget(&crate::tasks::Owner::Session(id)).await;
        ended.map_err(io::Error::other)?;
        Ok(())
    }
}

/// One of the slots a request holds while it is in flight; the slot is free again once every
/// holder has dropped it.
type Slot = Arc<OwnedSemaphorePermit>;

/// The transport: lines in, lines out.
struct LineTransport<R, W> {
    read: BufReader<R>,
    /// The line being read; a read cancelled by rmcp's `select!` resumes it.
    line: Vec<u8>,
    /// Set when the line outgrew `max_line_bytes`: its start is kept, the rest skipped.
    too_long: bool,
    /// Set once `read` has ended; a last line without its newline is read before.
    ended: bool,
    max_line_bytes: usize,
    write: Writer<W>,
    slots: Arc<Semaphore>,
    /// The slot the next line will take, acquired before it is read.
    next: Option<OwnedSemaphorePermit>,
    /// The slot of each request not yet answered, by id, so writing its answer frees it.
    answering: Arc<Mutex<HashMap<RequestId, Slot>>>,
    /// The answer to the last line, when it was no message and is not written yet.
    refusing: Option<Refusing<W>>,
    /// What a 2025-11-25 client is told of tasks beyond rmcp's types; `Some` only for a
    /// server with task tools, the only one whose requests are rerouted
    /// ([`crate::tasks::reroute`]).
    publish: Option<Arc<crate::tasks::Publish>>,
}

/// What one read of a line found.
enum Line {
    /// A whole line is in `line`, its newline removed.
    Whole,
    /// The line was longer than the limit; `line` holds its start.
    TooLong,
    Ended,
    Failed(io::Error),
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    fn new(
        read: R,
        write: W,
        options: &Options,
        publish: Option<Arc<crate::tasks::Publish>>,
    ) -> Self {
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            too_long: false,
            ended: false,
            max_line_bytes: options.max_line_bytes,
            write: Writer(Arc::new(tokio::sync::Mutex::new(Some(write)))),
            slots: Arc::new(Semaphore::new(options.max_in_flight)),
            next: None,
            answering: Arc::default(),
            refusing: None,
            publish,
        }
    }

    /// Reads one line into `self.line`, never holding more than the limit. Cancel-safe: each
    /// chunk is copied and consumed with no await between, so a read dropped by rmcp's
    /// `select!` leaves its partial line for the next call.
    async fn read_line(&mut self) -> Line {
        loop {
            if self.ended {
                return Line::Ended;
            }
            let available = match self.read.fill_buf().await {
                Ok(available) => available,
                Err(e) => return Line::Failed(e),
            };
            if available.is_empty() {
                // A last line without its newline is still a line.
                self.ended = true;
                if self.too_long {
                    self.too_long = false;
                    return Line::TooLong;
                }
                return if self.line.is_empty() {
                    Line::Ended
                } else {
                    Line::Whole
                };
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            if !self.too_long {
                self.line.extend_from_slice(chunk);
                if self.line.len() > self.max_line_bytes {
                    self.too_long = true;
                    self.line.truncate(KEPT_OF_A_LONG_LINE);
                }
            }
            let consumed = newline.map_or(available.len(), |at| at + 1);
            self.read.consume(consumed);
            if newline.is_some() {
                if std::mem::take(&mut self.too_long) {
                    return Line::TooLong;
                }
                return Line::Whole;
            }
        }
    }

    /// Empties the line, and lets a large one's memory go rather than keep it for the rest
    /// of the session.
    fn clear_line(&mut self) {
        if self.line.capacity() > 1 << 16 {
            self.line = Vec::new();
        } else {
            self.line.clear();
        }
    }

    /// Gives `message` the slot it was read with, when it is a request, and frees the slot
    /// of a request its client cancels, whose answer rmcp then drops.
    fn admit(&mut self, mut message: ClientJsonRpcMessage) -> ClientJsonRpcMessage {
        let mut answering = self.answering.lock().unwrap_or_else(|e| e.into_inner());
        match &mut message {
            ClientJsonRpcMessage::Request(request) => {
                if let Some(slot) = self.next.take() {
                    let slot = Arc::new(slot);
                    request
                        .request
                        .extensions_mut()
                        .insert(InFlight::holding(slot.clone()));
                    // A second request under an id in flight takes its place: rmcp answers
                    // that id once, and each request's handler still holds its own slot.
                    answering.insert(request.id.clone(), slot);
                }
            }
            ClientJsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    answering.remove(id);
                }
            }
            _ => {}
        }
        drop(answering);
        message
    }

    /// Writes the answer to a line that was no message before anything more is read. It
    /// holds the writer from its first byte to its last, and resumes where it stopped when
    /// rmcp's `select!` drops `receive` half-way, so no other answer cuts into it.
    async fn refuse(&mut self) -> io::Result<()> {
        let Some(refusing) = &mut self.refusing else {
            return Ok(());
        };
        if refusing.writer.is_none() {
            refusing.writer = Some(self.write.0.clone().lock_owned().await);
        }
        let write = refusing
            .writer
            .as_mut()
            .and_then(|w| w.as_mut())
            .ok_or_else(closed)?;
        while refusing.written < refusing.line.len() {
            match write.write(&refusing.line[refusing.written..]).await? {
                0 => return Err(io::ErrorKind::WriteZero.into()),
                n => refusing.written += n,
            }
        }
        write.flush().await?;
        self.refusing = None;
        Ok(())
    }
}

/// An answer to a line that was no message, while it is written.
struct Refusing<W> {
    line: Vec<u8>,
    written: usize,
    writer: Option<OwnedMutexGuard<Option<W>>>,
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        message: ServerJsonRpcMessage,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static {
        let write = self.write.clone();
        let answering = self.answering.clone();
        let reshaped = self.publish.as_ref().and_then(|p| p.reshape(&message));
        async move {
            let answered = match &message {
                ServerJsonRpcMessage::Response(response) => Some(response.id.clone()),
                ServerJsonRpcMessage::Error(error) => error.id.clone(),
                _ => None,
            };
            let written = match reshaped {
                Some(reshaped) => write.line(&reshaped).await,
                None => write.line(&message).await,
            };
            if let Some(id) = answered {
                answering
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&id);
            }
            written
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            if let Err(e) = self.refuse().await {
                tracing::error!(error = %e, "cannot write to the client's stream");
                return None;
            }
            if self.next.is_none() {
                self.next = Some(self.slots.clone().acquire_owned().await.ok()?);
            }
            let refusal = match self.read_line().await {
                Line::Whole => {
                    let line = self.line.strip_suffix(b"\r").unwrap_or(&self.line);
                    // A byte order mark is tolerated, as rmcp tolerates it, and blank lines
                    // between messages are no messages at all.
                    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
                    if line.iter().all(u8::is_ascii_whitespace) {
                        self.clear_line();
                        continue;
                    }
                    let mut read = jsonrpc::read(line);
                    if self.publish.is_some() {
                        // A server with task tools: a 2025-11-25 client may ask for a task.
                        read = read.map(|m| crate::tasks::reroute(m, line));
                    }
                    self.clear_line();
                    match read {
                        Ok(message) => return Some(self.admit(message)),
                        Err(refusal) => refusal,
                    }
                }
                Line::TooLong => {
                    let refusal = jsonrpc::too_long(&self.line, self.max_line_bytes);
                    self.clear_line();
                    refusal
                }
                Line::Ended => return None,
                Line::Failed(e) => {
                    tracing::error!(error = %e, "cannot read the client's stream");
                    return None;
                }
            };
            if refusal.notification {
                tracing::debug!(error = %refusal.error.message, "ignored a notification");
            } else {
                self.refusing = Some(Refusing {
                    line: framed(&refusal.into_message()).ok()?,
                    written: 0,
                    writer: None,
                });
            }
        }
    }

    async fn close(&mut self) -> io::Result<()> {
        let mut write = self.write.0.lock().await;
        if let Some(mut write) = write.take() {
            write.flush().await?;
        }
        Ok(())
    }
}

/// The writing end, shared by every answer; one line at a time.
struct Writer<W>(Arc<tokio::sync::Mutex<Option<W>>>);

impl<W> Clone for Writer<W> {
    fn clone(&self) -> Self {
        Writer(Arc::clone(&self.0))
    }
}

impl<W: AsyncWrite + Unpin> Writer<W> {
    async fn line(&self, message: &impl serde::Serialize) -> io::Result<()> {
        let line = framed(message)?;
        let mut write = self.0.lock().await;
        let write = write.as_mut().ok_or_else(closed)?;
        write.write_all(&line).await?;
        write.flush().await
    }
}

/// `message` as the line that carries it.
fn framed(message: &impl serde::Serialize) -> io::Result<Vec<u8>> {
    let mut line = serde_json::to_vec(message)?;
    line.push(b'\n');
    Ok(line)
}

fn closed() -> io::Error {
    io::Error::new(io::ErrorKind::NotConnected, "the stream is closed")
}
