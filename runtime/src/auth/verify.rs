//! Verifying one bearer token: as a JWT signed by a key of the authorization server's set,
//! or by asking the server (RFC 7662 introspection); either way into the [`Principal`] it
//! names.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, Validation};
use reqwest::Url;
use rmcp::model::JsonObject;
use serde_json::Value;

use super::config::{Authorization, Introspection};
use super::fetch::{self, Fetcher};
use super::keys::{KeySet, Lookup};
use crate::access::Principal;

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Refusal {
    /// The token is not valid here (`401 invalid_token`), and why, for the client.
    Invalid(&'static str),
    /// Whether it is valid cannot be told now: the authorization server cannot be reached
    /// (`503`).
    Unavailable,
}

/// Verifies the tokens of one host.
pub(crate) struct Verifier {
    how: How,
    issuer: String,
    /// The configured resource identifier, which every route accepts as an audience.
    resource: String,
    leeway: Duration,
    pass_on: Vec<String>,
}

enum How {
    Jwt {
        keys: KeySet,
        algorithms: Vec<Algorithm>,
    },
    Introspection {
        endpoint: Url,
        client_id: String,
        client_secret: String,
        fetcher: Fetcher,
    },
}

impl Verifier {
    pub(crate) fn new(
        config: &Authorization,
        issuer: String,
        resource: String,
    ) -> Result<Self, Vec<String>> {
        let mut problems = Vec::new();
        // jsonwebtoken panics on its first use when the build enables both its crypto
        // providers and none is installed: install this crate's then, leaving any other
        // choice alone.
        if jsonwebtoken::crypto::CryptoProvider::try_get_default().is_none() {
            let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        }
        let fetcher = Fetcher::new(config.fetch_timeout).map_err(|e| vec![e])?;
        let how = match &config.introspection {
            Some(Introspection {
                endpoint,
                client_id,
                client_secret,
            }) => match fetch::url("introspection endpoint", endpoint) {
                Ok(endpoint) => Some(How::Introspection {
                    endpoint,
                    client_id: client_id.clone(),
                    client_secret: client_secret.clone(),
                    fetcher,
                }),
                Err(e) => {
                    problems.push(e);
                    None
                }
            },
            None => {
                let algorithms = algorithms(&config.algorithms).unwrap_or_else(|e| {
                    problems.extend(e);
                    Vec::new()
                });
                let jwks = match config.jwks.as_deref().map(|u| fetch::url("JWKS URL", u)) {
                    Some(Err(e)) => {
                        problems.push(e);
                        None
                    }
                    Some(Ok(url)) => Some(url),
                    None => None,
                };
                Some(How::Jwt {
                    keys: KeySet::new(issuer.clone(), jwks, fetcher, config.refresh_interval),
                    algorithms,
                })
            }
        };
        match how {
            Some(how) if problems.is_empty() => Ok(Verifier {
                how,
                issuer,
                resource,
                leeway: config.leeway,
                pass_on: config.claims.clone(),
            }),
            _ => Err(problems),
        }
    }

    /// The principal `token` names, when it is valid for the resource `route` (or the
    /// configured one).
    pub(crate) async fn verify(&self, token: &str, route: &str) -> Result<Principal, Refusal> {
        let claims = match &self.how {
            How::Jwt { keys, algorithms } => self.jwt(keys, algorithms, token, route).await?,
            How::Introspection {
                endpoint,
                client_id,
                client_secret,
                fetcher,
            } => {
                let form = format!(
                    "token={}&token_type_hint=access_token",
                    fetch::form_value(token)
                );
                let answer = fetcher
                    .post_form(endpoint, form, client_id, client_secret)
                    .await
                    .map_err(|e| {
                        tracing::warn!(error = %e, "cannot introspect a token");
                        Refusal::Unavailable
                    })?;
                let Value::Object(claims) = answer else {
                    tracing::warn!(%endpoint, "the introspection answer is not an object");
                    return Err(Refusal::Unavailable);
                };
                self.introspected(&claims, route)?;
                claims
            }
        };
        self.principal(&claims)
    }

    async fn jwt(
        &self,
        keys: &KeySet,
        algorithms: &[Algorithm],
        token: &str,
        route: &str,
    ) -> Result<JsonObject, Refusal> {
        // `alg: none` and names jsonwebtoken does not know fail here.
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| Refusal::Invalid("the token is not a signed JWT"))?;
        if !algorithms.contains(&header.alg) {
            return Err(Refusal::Invalid("the token's algorithm is not accepted"));
        }
        let key = match keys.lookup(header.kid.as_deref(), header.alg).await {
            Lookup::Found(key) => key,
            Lookup::Unknown => {
                return Err(Refusal::Invalid(
                    "the token's signing key is not the authorization server's",
                ));
            }
            Lookup::Unavailable => return Err(Refusal::Unavailable),
        };
        let mut validation = Validation::new(header.alg);
        validation.leeway = self.leeway.as_secs();
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[route, &self.resource]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        jsonwebtoken::decode::<JsonObject>(token, key.decoding(), &validation)
            .map(|data| data.claims)
            .map_err(|e| Refusal::Invalid(describe(e.kind())))
    }

    /// Checks what an introspection answered about a token: active, from the issuer, for
    /// this resource, within its validity.
    fn introspected(&self, claims: &JsonObject, route: &str) -> Result<(), Refusal> {
        if claims.get("active") != Some(&Value::Bool(true)) {
            return Err(Refusal::Invalid("the token is not active"));
        }
        if claims
            .get("iss")
            .is_some_and(|iss| iss.as_str() != Some(&self.issuer))
        {
            return Err(Refusal::Invalid(describe(&ErrorKind::InvalidIssuer)));
        }
        let for_here =
            |aud: &Value| aud.as_str() == Some(route) || aud.as_str() == Some(&self.resource);
        let audience_ok = match claims.get("aud") {
            Some(Value::Array(auds)) => auds.iter().any(for_here),
            Some(aud) => for_here(aud),
            None => false,
        };
        if !audience_ok {
            return Err(Refusal::Invalid(describe(&ErrorKind::InvalidAudience)));
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let leeway = self.leeway.as_secs();
        if claims
            .get("exp")
            .and_then(Value::as_u64)
            .is_some_and(|exp| exp.saturating_add(leeway) < now)
        {
            return Err(Refusal::Invalid(describe(&ErrorKind::ExpiredSignature)));
        }
        if claims
            .get("nbf")
            .and_then(Value::as_u64)
            .is_some_and(|nbf| nbf > now.saturating_add(leeway))
        {
            return Err(Refusal::Invalid(describe(&ErrorKind::ImmatureSignature)));
        }
        Ok(())
    }

    /// The principal of verified claims: `sub`, the scopes of `scope` (space-separated) or
    /// `scp` (an array), the client of `client_id` or `azp`, and the claims to pass on.
    fn principal(&self, claims: &JsonObject) -> Result<Principal, Refusal> {
        let subject = claims
            .get("sub")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .ok_or(Refusal::Invalid("the token names no subject (`sub`)"))?;
        let scopes: Vec<String> = match (claims.get("scope"), claims.get("scp")) {
            (Some(Value::String(scope)), _) | (None, Some(Value::String(scope))) => {
                scope.split_whitespace().map(str::to_owned).collect()
            }
            (None, Some(Value::Array(scp))) => scp
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            _ => Vec::new(),
        };
        let mut principal = Principal::new(subject, scopes);
        if let Some(client) = ["client_id", "azp"]
            .iter()
            .find_map(|name| claims.get(*name).and_then(Value::as_str))
        {
            principal = principal.with_client_id(client);
        }
        let passed: JsonObject = self
            .pass_on
            .iter()
            .filter_map(|name| Some((name.clone(), claims.get(name)?.clone())))
            .collect();
        Ok(principal.with_claims(passed))
    }
}

/// The accepted algorithms of `names`: refused when one is unknown, symmetric or `none`.
fn algorithms(names: &[String]) -> Result<Vec<Algorithm>, Vec<String>> {
    let mut problems = Vec::new();
    let mut accepted = Vec::new();
    for name in names {
        match name.parse::<Algorithm>() {
            Ok(Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512) => problems.push(format!(
                "the algorithm `{name}` is symmetric: a resource server never accepts HMAC tokens"
            )),
            Ok(alg) => accepted.push(alg),
            Err(_) if name.eq_ignore_ascii_case("none") => {
                problems.push("the algorithm `none` is never accepted".to_owned())
            }
            Err(_) => problems.push(format!("the algorithm `{name}` is not known")),
        }
    }
    if names.is_empty() {
        problems.push("no token signing algorithm is accepted".to_owned());
    }
    if problems.is_empty() {
        Ok(accepted)
    } else {
        Err(problems)
    }
}

/// What the client is told about a token refused.
fn describe(kind: &ErrorKind) -> &'static str {
    match kind {
        ErrorKind::ExpiredSignature => "the token has expired",
        ErrorKind::ImmatureSignature => "the token is not valid yet",
        ErrorKind::InvalidIssuer => "the token is not from the authorization server",
        ErrorKind::InvalidAudience => "the token is not for this resource",
        ErrorKind::InvalidSignature => "the token's signature is not valid",
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not fit its key",
        ErrorKind::MissingRequiredClaim(claim) => match claim.as_str() {
            "exp" => "the token has no expiry (`exp`)",
            "iss" => "the token names no issuer (`iss`)",
            "aud" => "the token names no audience (`aud`)",
            "sub" => "the token names no subject (`sub`)",
            _ => "the token lacks a required claim",
        },
        _ => "the token is not valid",
    }
}

#[cfg(test)]
mod tests {
    use super::algorithms;

    #[test]
    fn only_asymmetric_algorithms_are_accepted() {
        assert!(algorithms(&["RS256".into(), "EdDSA".into()]).is_ok());
        for refused in ["HS256", "HS512", "none", "None", "XX1", "rs256"] {
            assert!(algorithms(&[refused.into()]).is_err(), "{refused}");
        }
        assert!(algorithms(&[]).is_err());
    }
}
