//! What the clients connect to in front of a fleet: the instances themselves, each request to
//! the next in turn, or HAProxy doing the same.

use crate::client::Endpoint;
use crate::fleet::Fleet;

/// One way to reach a fleet.
pub enum Front {
    /// Each request straight to the next instance, by the client.
    Direct(Vec<String>),
}

impl Front {
    /// Every way the run reaches `fleet`.
    pub fn all(fleet: &Fleet) -> Result<Vec<Front>, String> {
        Ok(vec![Front::Direct(fleet.bases())])
    }

    pub fn label(&self) -> &'static str {
        match self {
            Front::Direct(_) => "direct",
        }
    }

    /// A client of it.
    pub fn endpoint(&self) -> Endpoint {
        match self {
            Front::Direct(bases) => Endpoint::new(bases.clone()),
        }
    }
}
