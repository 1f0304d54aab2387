//! The clients a contract is held to: the names `server.profiles` and `mcp-contract check
//! --profile` take. Which lint protects which client is `portability::RULES`.

use std::fmt;
use std::str::FromStr;

/// A client whose known limits a contract can be checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Client {
    /// Claude (Claude Code, Claude Desktop, and any client passing tools to the Anthropic API).
    Claude,
    /// GitHub Copilot in VS Code.
    Copilot,
    /// Gemini (Gemini CLI, and any client passing tools to the Gemini API).
    Gemini,
    /// OpenAI (clients passing tools to the OpenAI API in strict mode).
    OpenAi,
}

impl Client {
    /// Every client, in the order profiles list them.
    pub const ALL: [Client; 4] = [
        Client::Claude,
        Client::Copilot,
        Client::Gemini,
        Client::OpenAi,
    ];

    /// Its profile's name.
    pub fn name(self) -> &'static str {
        match self {
            Client::Claude => "claude",
            Client::Copilot => "copilot",
            Client::Gemini => "gemini",
            Client::OpenAi => "openai",
        }
    }
}

/// A portability profile: one client's lints, all of them (`portable`), or `strict`, which
/// makes every lint of the other profiles named an error (and, named alone, means `portable`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The lints that protect one client.
    Client(Client),
    /// The lints of every client.
    Portable,
    /// Every lint selected is an error instead of a warning.
    Strict,
}

impl Profile {
    /// Every profile's name, as the manifest and the command line write it.
    pub const NAMES: [&'static str; 6] = [
        "claude", "copilot", "gemini", "openai", "portable", "strict",
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Client(c) => c.name(),
            Profile::Portable => "portable",
            Profile::Strict => "strict",
        }
    }
}

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "portable" => Ok(Profile::Portable),
            "strict" => Ok(Profile::Strict),
            _ => Client::ALL
                .into_iter()
                .find(|c| c.name() == name)
                .map(Profile::Client)
                .ok_or_else(|| UnknownProfile(name.to_owned())),
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A profile name that names none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownProfile(pub String);

impl fmt::Display for UnknownProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a profile; the profiles are {}",
            self.0,
            Profile::NAMES.map(|n| format!("`{n}`")).join(", ")
        )
    }
}

impl std::error::Error for UnknownProfile {}

/// The clients a set of profiles selects, and whether their lints are errors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Selection {
    /// The clients whose lints run, each once, in [`Client::ALL`] order.
    pub clients: Vec<Client>,
    /// Whether the lints are errors.
    pub strict: bool,
}

impl Selection {
    /// What `profiles` select together: `portable` every client, `strict` alone `portable`
    /// made errors.
    pub(crate) fn of<'p>(profiles: impl IntoIterator<Item = &'p Profile>) -> Selection {
        let mut clients = Vec::new();
        let (mut strict, mut all) = (false, false);
        for p in profiles {
            match p {
                Profile::Client(c) => clients.push(*c),
                Profile::Portable => all = true,
                Profile::Strict => strict = true,
            }
        }
        if all || (strict && clients.is_empty()) {
            clients = Client::ALL.to_vec();
        }
        clients.sort();
        clients.dedup();
        Selection { clients, strict }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names are the clients' and the two others', each read back as itself.
    #[test]
    fn every_name_is_a_profile_read_back_as_itself() {
        let clients = Client::ALL.map(Profile::Client);
        let all: Vec<Profile> = (clients.into_iter())
            .chain([Profile::Portable, Profile::Strict])
            .collect();
        let names: Vec<&str> = all.iter().map(|p| p.name()).collect();
        assert_eq!(names, Profile::NAMES);
        for profile in all {
            assert_eq!(profile.name().parse::<Profile>(), Ok(profile));
        }
    }
}
