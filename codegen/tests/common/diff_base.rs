//! The manifest the diff tests edit, shared by the engine's tests and the CLI's.

/// The manifest every case edits. Line numbers in the expectations count from here:
/// `read_file` is named on line 11, `path` on 17, `mode` on 23, `limits` on 29 (its `lines`
/// on 35), `tags` on 40, the output fields `content` and `size` on 50 and 53, `ping` on 57.
pub const BASE: &str = "\
server:
  name: demo
sentences:
  careful: It changes nothing.
errors:
  not_found:
    message: \"There is no file `{path}`.\"
  too_big:
    message: \"The file is too big.\"
tools:
  - name: read_file
    title: Read a file
    description: Returns a file's text.
    sentences: [careful]
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    parameters:
      path:
        type: string
        description: The file to read.
        minLength: 1
        maxLength: 100
        example: notes.txt
      mode:
        type: string
        description: How to read it.
        enum: [text, bytes]
        default: text
        example: text
      limits:
        type: object
        description: Where to stop.
        required: false
        example: {lines: 10}
        properties:
          lines:
            type: integer
            description: At most this many lines.
            minimum: 1
            maximum: 1000
      tags:
        type: array
        description: Labels to match.
        required: false
        example: [a]
        items:
          type: string
          pattern: \"^[a-z]+$\"
    output:
      properties:
        content:
          type: string
          description: The text.
        size:
          type: integer
          description: Its size in bytes.
    errors: [not_found, too_big]
  - name: ping
    title: Ping
    description: Answers pong.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
";

/// [`BASE`] with its only occurrence of `from` replaced by `to`.
#[track_caller]
pub fn edit(from: &str, to: &str) -> String {
    assert_eq!(BASE.matches(from).count(), 1, "`{from}` must occur once");
    BASE.replacen(from, to, 1)
}

/// A second text tool, to add.
pub const PONG: &str = "  - name: pong
    title: Pong
    description: Answers ping.
    hints: {read_only: true, destructive: false, idempotent: true, open_world: false}
    output: text
";
