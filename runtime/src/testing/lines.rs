//! Raw JSON-RPC lines to a server served in process over a byte stream, exactly as
//! `serve_stdio` serves stdin and stdout: for what an MCP client never sends (malformed
//! lines, pipelined floods) and what it does not show (ids, raw error objects).

use serde_json::Value;
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream};

use crate::server::{Dispatch, Server};
use crate::stdio::Options;

/// One end of a newline-delimited JSON-RPC stream whose other end a server serves.
pub struct Lines {
    write: tokio::io::WriteHalf<DuplexStream>,
    read: BufReader<tokio::io::ReadHalf<DuplexStream>>,
}

/// Serves `server` on an in-memory byte stream with the default [`Options`] and returns the
/// client's end.
pub fn serve_lines<D: Dispatch>(server: Server<D>) -> Lines {
    serve_lines_with(server, Options::default())
}

/// Serves `server` on an in-memory byte stream with `options` and returns the client's end.
pub fn serve_lines_with<D: Dispatch>(server: Server<D>, options: Options) -> Lines {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(server_io);
    tokio::spawn(server.serve_stream(read, write, options));
    let (read, write) = tokio::io::split(client_io);
    Lines {
        write,
        read: BufReader::new(read),
    }
}

impl Lines {
    /// Writes `line` and a newline, whatever `line` holds.
    ///
    /// # Panics
    ///
    /// When the server has closed the stream.
    pub async fn send(&mut self, line: &str) {
        self.write_raw(format!("{line}\n").as_bytes()).await;
    }

    /// Writes `bytes` as they are, newline or not.
    ///
    /// # Panics
    ///
    /// When the server has closed the stream.
    pub async fn write_raw(&mut self, bytes: &[u8]) {
        let written = async {
            self.write.write_all(bytes).await?;
            self.write.flush().await
        };
        written
            .await
            .unwrap_or_else(|e| panic!("cannot write to the server: {e}"));
    }

    /// Ends the stream the server reads, as a client closing stdin does; the server's
    /// answers can still be read.
    pub async fn close(&mut self) {
        let _ = self.write.shutdown().await;
    }

    /// Writes one JSON-RPC request.
    pub async fn request(&mut self, id: u64, method: &str, params: Value) {
        let request =
            serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send(&request.to_string()).await;
    }

    /// The next line the server writes, as JSON; `None` when none comes within 10 seconds
    /// or the server closed the stream.
    ///
    /// # Panics
    ///
    /// When the line is not JSON: a server writes nothing else.
    pub async fn next(&mut self) -> Option<Value> {
        let mut line = String::new();
        let read = tokio::time::timeout(
            std::time::Duration::from_secs(10),
            self.read.read_line(&mut line),
        )
        .await;
        match read {
            Ok(Ok(n)) if n > 0 => Some(serde_json::from_str(&line).unwrap_or_else(|e| {
                panic!("the server wrote a line that is not JSON ({e}): {line}")
            })),
            _ => None,
        }
    }

    /// The next line the server writes.
    ///
    /// # Panics
    ///
    /// When nothing comes within 10 seconds.
    pub async fn answer(&mut self) -> Value {
        self.next()
            .await
            .unwrap_or_else(|| panic!("no answer within 10 seconds"))
    }

    /// Starts a 2026-07-28 conversation with `server/discover`, as a stateless client does,
    /// and returns its result.
    pub async fn discover(&mut self) -> Value {
        self.request(
            0,
            "server/discover",
            serde_json::json!({"_meta": super::request_meta()}),
        )
        .await;
        self.answer().await["result"].clone()
    }

    /// Starts a 2025-11-25 session with `initialize` and `notifications/initialized`, and
    /// returns the initialize result.
    pub async fn initialize(&mut self) -> Value {
        self.request(
            0,
            "initialize",
            serde_json::json!({"protocolVersion": "2025-11-25", "capabilities": {},
                               "clientInfo": {"name": "lines", "version": "0"}}),
        )
        .await;
        let result = self.answer().await["result"].clone();
        self.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        result
    }
}
