//! MCP Apps (SEP-1865, the `io.modelcontextprotocol/ui` extension): the names both halves
//! publish, as the extension's specification (`specification/2026-01-26/apps.mdx`) writes them.

/// The extension's identifier: the key of `capabilities.extensions` a server that declares an
/// app advertises (`{}`, no settings) and a client that renders apps advertises.
pub const EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The MIME type of an app's HTML, which a `ui://` resource must carry exactly: a host routes
/// a resource into its app bridge by it.
pub const MIME_TYPE: &str = "text/html;profile=mcp-app";

/// The URI scheme of an app's resource.
pub const SCHEME: &str = "ui://";

/// The query parameter of the URI a host sees, which carries the version of the HTML: hosts
/// cache an app by its URI, so changed HTML must be a new URI.
pub const VERSION_PARAMETER: &str = "v";
