//! Where the two planning contracts are published in a tool's `_meta`: each at a key path
//! (`mcp_contract_spec::planning::key_path`), one key unless the manifest writes a list. The
//! two may share a parent object (`[gnougo, artifacts]` and `[gnougo, composition]`), but
//! neither may sit at the other's path or inside it: one object would hold both.

use super::Validator;
use crate::diagnostic::codes;
use crate::manifest::Manifest;
use crate::model::KeyPath;
use crate::source::Spanned;

/// Where the artifact contract is published when the manifest does not say.
pub(crate) const DEFAULT_ARTIFACTS_KEY: &str = "io.github.mcp-contract/artifacts";
/// Where the composition contract is published when the manifest does not say.
pub(crate) const DEFAULT_COMPOSITION_KEY: &str = "io.github.mcp-contract/composition";

impl Validator<'_> {
    /// The key paths of the artifact and composition contracts, kept apart.
    pub(super) fn planning_keys(&mut self, manifest: &Manifest) -> (KeyPath, KeyPath) {
        let artifacts = manifest
            .artifacts
            .as_ref()
            .and_then(|a| a.meta_key.as_ref());
        let composition = manifest
            .composition
            .as_ref()
            .and_then(|c| c.meta_key.as_ref());
        let artifacts = self.key_path(artifacts, DEFAULT_ARTIFACTS_KEY);
        let composition = self.key_path(composition, DEFAULT_COMPOSITION_KEY);
        self.apart(&artifacts, &composition);
        (artifacts, composition)
    }

    /// A written key path with every key checked; the default when it is left out or refused
    /// (the default is then kept apart from the other path too).
    fn key_path(
        &mut self,
        written: Option<&Spanned<Vec<Spanned<String>>>>,
        default: &str,
    ) -> KeyPath {
        let default = KeyPath {
            keys: vec![default.to_owned()],
            span: None,
        };
        let Some(written) = written else {
            return default;
        };
        if written.value.is_empty() {
            self.report(
                &codes::BAD_META_KEY,
                "`meta_key` is an empty key path: write one key, or a list of keys",
                written.span,
            );
            return default;
        }
        let mut sound = true;
        for key in &written.value {
            sound &= self.meta_key(key);
        }
        if !sound {
            return default;
        }
        KeyPath {
            keys: written.value.iter().map(|k| k.value.clone()).collect(),
            span: Some(written.span),
        }
    }

    /// Refuses two paths that are equal, or one inside the other. It is reported where the
    /// clash is written: at the composition key, or, when only the artifacts key is written,
    /// at that key, which then meets the composition's default.
    fn apart(&mut self, artifacts: &KeyPath, composition: &KeyPath) {
        let (a, c) = (&artifacts.keys, &composition.keys);
        if !a.starts_with(c) && !c.starts_with(a) {
            return;
        }
        let same = a == c;
        // How the written path stands to the other: it holds it, or lies inside it.
        let relation = |written: &KeyPath, other: &KeyPath| {
            if other.keys.len() > written.keys.len() {
                "holds"
            } else {
                "lies inside"
            }
        };
        if let Some(span) = composition.span {
            let (code, message, help) = if same {
                (
                    &codes::DUPLICATE_META_KEY,
                    format!("`{}` is already the artifacts key", composition.shown()),
                    "publish the two contracts under different `_meta` keys",
                )
            } else {
                (
                    &codes::NESTED_META_KEY,
                    format!(
                        "`{}` {} the artifacts contract at `{}`",
                        composition.shown(),
                        relation(composition, artifacts),
                        artifacts.shown()
                    ),
                    "let the two paths part after their shared parent, such as `[com.example, artifacts]` and `[com.example, composition]`",
                )
            };
            self.error(code, message, span, help);
        } else if let Some(span) = artifacts.span {
            let message = if same {
                format!(
                    "`{}` is where the composition contract is published",
                    artifacts.shown()
                )
            } else {
                format!(
                    "`{}` {} the composition contract at `{}`",
                    artifacts.shown(),
                    relation(artifacts, composition),
                    composition.shown()
                )
            };
            let code = if same {
                &codes::DUPLICATE_META_KEY
            } else {
                &codes::NESTED_META_KEY
            };
            self.error(
                code,
                message,
                span,
                "choose another key, or move the composition contract with `composition: {meta_key: ...}`",
            );
        }
    }
}
