//! What a client sent, read as one JSON-RPC message, and the error any input that is not one
//! is answered with. Both transports read through here: every stdio line, every HTTP body
//! rmcp could not read.

use rmcp::model::{ClientJsonRpcMessage, ErrorData, RequestId, ServerJsonRpcMessage};
use serde_json::Value;

use crate::params;

/// An input the server cannot take as a message, and how to answer it.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub(crate) error: ErrorData,
    /// The input's own id, when it has one that can be read: JSON-RPC answers by it even a
    /// request it cannot parse, so the client waiting for that id gets its answer.
    pub(crate) id: Option<RequestId>,
    /// The input is a notification (a method, no id) rmcp cannot read, its params most
    /// likely: on a stream it is not answered, as JSON-RPC answers no notification; over
    /// HTTP it still gets its status and error.
    pub(crate) notification: bool,
}

impl Refusal {
    fn new(error: ErrorData, id: Option<RequestId>) -> Refusal {
        Refusal {
            error,
            id,
            notification: false,
        }
    }

    /// The error response.
    pub(crate) fn into_message(self) -> ServerJsonRpcMessage {
        ServerJsonRpcMessage::error(self.error, self.id)
    }
}

/// `input` as the message it is, exactly as rmcp reads one, or why it is none.
pub(crate) fn read(input: &[u8]) -> Result<ClientJsonRpcMessage, Box<Refusal>> {
    serde_json::from_slice(input).map_err(|_| Box::new(refusal(input)))
}

/// A line longer than the transport takes, of which `start` is the beginning.
pub(crate) fn too_long(start: &[u8], limit: usize) -> Box<Refusal> {
    let error = ErrorData::invalid_request(
        format!("Invalid Request: the message is longer than the {limit} bytes a line may hold"),
        None,
    );
    Box::new(Refusal::new(error, scanned_id(start)))
}

/// Why `input`, which is not a message rmcp reads, is none: -32700 for what is not JSON,
/// -32602 for a request whose params do not fit its method, -32600 for the rest.
fn refusal(input: &[u8]) -> Refusal {
    let id = scanned_id(input);
    let value = match serde_json::from_slice::<Value>(input) {
        Ok(value) => value,
        Err(e) => {
            return Refusal::new(
                ErrorData::parse_error(format!("Parse error: {e}"), None),
                id,
            );
        }
    };
    let invalid = |why: &str| ErrorData::invalid_request(format!("Invalid Request: {why}"), None);
    let object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            let why = "a batch (a JSON array) is not supported; send one message at a time";
            return Refusal::new(invalid(why), None);
        }
        _ => return Refusal::new(invalid("a JSON-RPC message is an object"), None),
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Refusal::new(invalid(r#"`jsonrpc` must be "2.0""#), id);
    }
    let Some(method) = object.get("method") else {
        let why = if object.contains_key("result") || object.contains_key("error") {
            "a response has an `id` and exactly one of `result` and `error`"
        } else {
            "a request has a `method`"
        };
        return Refusal::new(invalid(why), id);
    };
    let Some(method) = method.as_str() else {
        return Refusal::new(invalid("`method` must be a string"), id);
    };
    let notification = !object.contains_key("id");
    if !notification && id.is_none() {
        return Refusal::new(invalid("`id` must be a string or an integer"), None);
    }
    let error = match params::shape_problem(method, object.get("params")) {
        Some(problem) => ErrorData::invalid_params(problem, None),
        None => invalid(&format!("not a valid `{method}` message")),
    };
    Refusal {
        error,
        id,
        notification,
    }
}

/// The `id` of the object `input` begins with, read only as far as the input is well-formed,
/// so a truncated request or one holding a string JSON cannot hold still has it. None when
/// no whole string or integer id comes before the input breaks, and for a response: its id
/// is one of the server's own requests, not one the client waits on.
fn scanned_id(input: &[u8]) -> Option<RequestId> {
    let mut scan = Scan(input);
    let mut id = None;
    if scan.byte(b'{') {
        while let Some(key) = scan.key() {
            let Some(value) = scan.value() else { break };
            match key {
                b"id" if id.is_none() => id = serde_json::from_slice(value).ok(),
                b"result" | b"error" => return None,
                _ => {}
            }
            if !scan.byte(b',') {
                break;
            }
        }
    }
    id
}

/// A cursor over JSON text that only finds where values end; it decodes nothing.
struct Scan<'a>(&'a [u8]);

impl<'a> Scan<'a> {
    fn whitespace(&mut self) {
        let skip = self
            .0
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .count();
        self.0 = &self.0[skip..];
    }

    /// Takes `byte`, after any whitespace, if it comes next.
    fn byte(&mut self, byte: u8) -> bool {
        self.whitespace();
        match self.0.split_first() {
            Some((&b, rest)) if b == byte => {
                self.0 = rest;
                true
            }
            _ => false,
        }
    }

    /// The raw text of the member name that comes next, and its colon.
    fn key(&mut self) -> Option<&'a [u8]> {
        self.whitespace();
        let quoted = self.string()?;
        self.byte(b':').then(|| &quoted[1..quoted.len() - 1])
    }

    /// A whole string, quotes included, however its escapes read.
    fn string(&mut self) -> Option<&'a [u8]> {
        let input = self.0;
        if input.first() != Some(&b'"') {
            return None;
        }
        let mut at = 1;
        while let Some(&b) = input.get(at) {
            match b {
                b'\\' => at += 2,
                b'"' => {
                    self.0 = &input[at + 1..];
                    return Some(&input[..=at]);
                }
                _ => at += 1,
            }
        }
        None
    }

    /// The raw text of the whole value that comes next. A number or literal must be followed
    /// by something, since the input may have been cut inside it.
    fn value(&mut self) -> Option<&'a [u8]> {
        self.whitespace();
        let input = self.0;
        match input.first()? {
            b'"' => self.string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut rest = Scan(input);
                loop {
                    match rest.0.first()? {
                        b'"' => {
                            rest.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    rest.0 = &rest.0[1..];
                    if depth == 0 {
                        let taken = input.len() - rest.0.len();
                        self.0 = rest.0;
                        return Some(&input[..taken]);
                    }
                }
            }
            _ => {
                let taken = input
                    .iter()
                    .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))?;
                self.0 = &input[taken..];
                Some(&input[..taken])
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::{ErrorCode, NumberOrString};

    use super::*;

    fn refused(input: &str) -> Box<Refusal> {
        read(input.as_bytes()).expect_err("not a message")
    }

    #[test]
    fn an_id_is_read_as_far_as_the_input_is_whole() {
        let number = |n| Some(NumberOrString::Number(n));
        let string = |s: &str| Some(NumberOrString::String(s.into()));
        for (input, id) in [
            (
                r#"{"jsonrpc":"2.0","id":7,"method":"tools/list","par"#,
                number(7),
            ),
            (
                r#"{"id":"a\"b","method":"x","params":{"p":"\ud800"}}"#,
                string("a\"b"),
            ),
            (r#"{"method":"x","id":"s-1"}"#, string("s-1")),
            (
                r#"{"params":{"nested":[1,{"id":2}]},"id":3,"method":"#,
                number(3),
            ),
            (r#"{"id":12"#, None),
            (r#"{"id":1.5,"method":"x"}"#, None),
            (r#"{"id":"\ud800"}"#, None),
            (r#"{"id":4,"result":{}}"#, None),
            ("[1]", None),
            ("", None),
        ] {
            assert_eq!(scanned_id(input.as_bytes()), id, "{input}");
        }
    }

    #[test]
    fn each_kind_of_input_gets_its_code() {
        for (input, code) in [
            ("{", ErrorCode::PARSE_ERROR),
            ("\u{feff}{}", ErrorCode::PARSE_ERROR),
            ("[]", ErrorCode::INVALID_REQUEST),
            ("null", ErrorCode::INVALID_REQUEST),
            (
                r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{}}"#,
                ErrorCode::INVALID_REQUEST,
            ),
            (
                r#"{"jsonrpc":"2.0","id":{},"method":"tools/list"}"#,
                ErrorCode::INVALID_REQUEST,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":5}"#,
                ErrorCode::INVALID_PARAMS,
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":5}}"#,
                ErrorCode::INVALID_PARAMS,
            ),
        ] {
            assert_eq!(refused(input).error.code, code, "{input}");
        }
    }

    #[test]
    fn a_notification_with_params_that_do_not_fit_is_not_answered_on_a_stream() {
        let refusal = refused(r#"{"jsonrpc":"2.0","method":"notifications/x","params":[1]}"#);
        assert!(refusal.notification);
        assert_eq!(refusal.error.code, ErrorCode::INVALID_PARAMS);
        let broken = refused(r#"{"jsonrpc":"2.0","method":5}"#);
        assert!(!broken.notification, "not even a notification: answered");
    }

    #[test]
    fn a_line_too_long_is_answered_by_the_id_it_starts_with() {
        let refusal = too_long(
            br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"na"#,
            10,
        );
        assert_eq!(refusal.error.code, ErrorCode::INVALID_REQUEST);
        assert_eq!(refusal.id, Some(NumberOrString::Number(9)));
    }
}
