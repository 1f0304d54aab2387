//! Asking the authorization server: JSON documents fetched with a timeout and a bound on
//! their size, from `https` URLs (or `http` ones on loopback).

use std::net::IpAddr;
use std::time::Duration;

use reqwest::Url;
use serde_json::Value;

/// The largest document read from the authorization server: a key set of a hundred RSA keys
/// fits many times over.
const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

/// Why a fetch gave nothing usable; said in the log, never to a client.
pub(crate) type FetchError = String;

/// The client every fetch goes through.
#[derive(Clone)]
pub(crate) struct Fetcher {
    client: reqwest::Client,
}

impl Fetcher {
    pub(crate) fn new(timeout: Duration) -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout)
            .redirect(reqwest::redirect::Policy::limited(3))
            .no_proxy()
            .build()
            .map_err(|e| format!("cannot make the authorization client: {e}"))?;
        Ok(Fetcher { client })
    }

    /// GETs the JSON document at `url`.
    pub(crate) async fn get(&self, url: &Url) -> Result<Value, FetchError> {
        let request = self
            .client
            .get(url.clone())
            .header(reqwest::header::ACCEPT, "application/json");
        self.json(url, request).await
    }

    /// POSTs `form` (already `application/x-www-form-urlencoded`) to `url` as HTTP Basic
    /// `user`, and reads the JSON answer.
    pub(crate) async fn post_form(
        &self,
        url: &Url,
        form: String,
        user: &str,
        password: &str,
    ) -> Result<Value, FetchError> {
        let request = self
            .client
            .post(url.clone())
            .basic_auth(user, Some(password))
            .header(reqwest::header::ACCEPT, "application/json")
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(form);
        self.json(url, request).await
    }

    async fn json(&self, url: &Url, request: reqwest::RequestBuilder) -> Result<Value, FetchError> {
        let mut response = request
            .send()
            .await
            .map_err(|e| format!("{url}: {}", without_url(&e)))?;
        if !response.status().is_success() {
            return Err(format!("{url}: answered {}", response.status()));
        }
        if response
            .content_length()
            .is_some_and(|n| n > MAX_DOCUMENT_BYTES as u64)
        {
            return Err(format!(
                "{url}: the document is over {MAX_DOCUMENT_BYTES} bytes"
            ));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| format!("{url}: {}", without_url(&e)))?
        {
            if body.len() + chunk.len() > MAX_DOCUMENT_BYTES {
                return Err(format!(
                    "{url}: the document is over {MAX_DOCUMENT_BYTES} bytes"
                ));
            }
            body.extend_from_slice(&chunk);
        }
        serde_json::from_slice(&body).map_err(|e| format!("{url}: not JSON: {e}"))
    }
}

/// A reqwest error's message without the URL it repeats.
fn without_url(error: &reqwest::Error) -> String {
    let mut shown = String::new();
    let mut source: Option<&dyn std::error::Error> = Some(error);
    while let Some(e) = source {
        let text = e.to_string();
        if !shown.contains(&text) {
            if !shown.is_empty() {
                shown.push_str(": ");
            }
            shown.push_str(&text);
        }
        source = e.source();
    }
    shown
}

/// Parses a URL the authorization side is reached at: `https`, or `http` on a loopback
/// address (a test's, a sidecar's), with no fragment and no credentials.
pub(crate) fn url(what: &str, url: &str) -> Result<Url, String> {
    let parsed = Url::parse(url).map_err(|e| format!("the {what} `{url}` is not a URL: {e}"))?;
    let host = parsed.host_str().unwrap_or_default();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback());
    if !(parsed.scheme() == "https" || parsed.scheme() == "http" && loopback) {
        return Err(format!(
            "the {what} `{url}` must be an https URL (http only on a loopback address)"
        ));
    }
    if parsed.fragment().is_some() || !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(format!(
            "the {what} `{url}` must have no fragment and no credentials"
        ));
    }
    Ok(parsed)
}

/// `&`-free form encoding of one value: every byte but the unreserved ones percent-encoded.
pub(crate) fn form_value(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}
