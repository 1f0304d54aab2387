//! The generated `Tools` trait implemented on the workspace: each handler calls one
//! workspace operation and maps its outcome onto the tool's declared output and errors.

use std::sync::Arc;

use mcp_contract::ToolError as _;
use mcp_contract::ask::{Answer, Capability};
use mcp_contract::{
    Completing, Context, PromptError, PromptMessage, ResourceBody, ResourceError, Role,
};

use crate::contract::*;
use crate::workspace::{self, Watch, Workspace, WorkspaceError};

impl Tools for Workspace {
    async fn list_directory(
        &self,
        args: ListDirectoryArgs,
        _cx: Context,
    ) -> Result<ListDirectoryOutput, ListDirectoryError> {
        let options = workspace::ListOptions {
            depth: args.depth.into(),
            glob: args.glob.clone(),
            ..workspace::ListOptions::default()
        };
        let path = args.path.clone();
        let listing = blocking(self, move |w| w.list_directory(&path, &options))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| ListDirectoryArgument::Path,
                    |reason| ListDirectoryError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        let entries = listing
            .entries
            .into_iter()
            .map(|e| Entry {
                path: e.path,
                kind: kind(e.kind),
                size: e.size,
            })
            .collect();
        Ok(ListDirectoryOutput {
            entries,
            truncated: listing.truncated,
            hint: listing.hint,
        })
    }

    async fn read_file(
        &self,
        args: ReadFileArgs,
        _cx: Context,
    ) -> Result<ReadFileOutput, ReadFileError> {
        let (path, start, end) = (args.path.clone(), args.start_line, args.end_line);
        let range = blocking(self, move |w| w.read_file(&path, start, end))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| ReadFileArgument::Path,
                    |reason| ReadFileError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        Ok(ReadFileOutput {
            content: range.content,
            total_lines: range.total_lines,
            start_line: range.start_line,
            end_line: range.end_line,
            version: range.version,
        })
    }

    async fn read_files(
        &self,
        args: ReadFilesArgs,
        _cx: Context,
    ) -> Result<ReadFilesOutput, ReadFilesError> {
        let paths = args.paths;
        let given = paths.clone();
        let results = blocking(self, move |w| Ok(w.read_files(&paths)))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| ReadFilesArgument::Paths,
                    |reason| ReadFilesError::IoFailed {
                        path: ".".into(),
                        reason,
                    },
                )
            })?;
        let mut bytes_read = 0;
        let files = given
            .into_iter()
            .zip(results)
            .map(|(raw, result)| match result {
                Ok(read) => {
                    bytes_read += read.content.len() as u64;
                    ReadFilesOutputFiles {
                        path: read.path,
                        content: Some(read.content),
                        total_lines: Some(read.total_lines),
                        version: Some(read.version),
                        error: None,
                    }
                }
                Err(e) => {
                    // The same code, message and hint the error would have as a failed call.
                    let error = declared(
                        e,
                        |_| ReadFilesArgument::Paths,
                        |reason| ReadFilesError::IoFailed {
                            path: raw.clone(),
                            reason,
                        },
                    );
                    ReadFilesOutputFiles {
                        path: workspace_path(&raw),
                        content: None,
                        total_lines: None,
                        version: None,
                        error: Some(ReadFilesOutputFilesError {
                            code: error.code().to_owned(),
                            message: error.message(),
                            hint: error.hint(),
                        }),
                    }
                }
            })
            .collect();
        Ok(ReadFilesOutput { files, bytes_read })
    }

    async fn search_text(
        &self,
        args: SearchTextArgs,
        cx: Context,
    ) -> Result<SearchTextOutput, SearchTextError> {
        let options = workspace::SearchOptions {
            path: args.path.clone(),
            regex: args.regex,
            case_insensitive: args.case_insensitive,
            include: args.include.clone().unwrap_or_default(),
            exclude: args.exclude.clone().unwrap_or_default(),
            max_results: args.max_results.into(),
            ..workspace::SearchOptions::default()
        };
        let query = args.query.clone();
        let watch = Arc::new(Watch::default());
        let watching = Arc::clone(&watch);
        let search = blocking(self, move |w| {
            w.search_text_watched(&query, &options, &watching)
        });
        let found = watched(&cx, &watch, "entries looked at", search)
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| SearchTextArgument::Path,
                    |reason| SearchTextError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        cx.debug(&format!(
            "searched {} files for {} matching lines",
            found.files_searched,
            found.matches.len()
        ))
        .await;
        Ok(SearchTextOutput {
            matches: found
                .matches
                .into_iter()
                .map(|m| SearchTextOutputMatches {
                    path: m.path,
                    line: m.line,
                    text: m.text,
                })
                .collect(),
            files_searched: found.files_searched,
            truncated: found.truncated,
            hint: found.hint,
        })
    }

    async fn directory_tree(
        &self,
        args: DirectoryTreeArgs,
        cx: Context,
    ) -> Result<DirectoryTreeOutput, DirectoryTreeError> {
        let options = workspace::TreeOptions {
            max_depth: args.max_depth.into(),
            glob: args.glob.clone(),
            include_ignored: args.include_ignored,
            ..workspace::TreeOptions::default()
        };
        let path = args.path.clone();
        let watch = Arc::new(Watch::default());
        let watching = Arc::clone(&watch);
        let walk = blocking(self, move |w| {
            w.directory_tree_watched(&path, &options, &watching)
        });
        let tree = watched(&cx, &watch, "entries looked at", walk)
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| DirectoryTreeArgument::Path,
                    |reason| DirectoryTreeError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        Ok(DirectoryTreeOutput {
            path: tree.path,
            entries: tree
                .entries
                .into_iter()
                .map(|e| TreeEntry {
                    name: e.name,
                    path: e.path,
                    kind: kind(e.kind),
                    size: e.size,
                    depth: u64::from(e.depth),
                })
                .collect(),
            truncated: tree.truncated,
            hint: tree.hint,
        })
    }

    async fn find_files(
        &self,
        args: FindFilesArgs,
        _cx: Context,
    ) -> Result<FindFilesOutput, FindFilesError> {
        let options = workspace::FindOptions {
            path: args.path.clone(),
            limit: args.limit.into(),
            include_ignored: args.include_ignored,
            ..workspace::FindOptions::default()
        };
        let pattern = args.pattern.clone();
        let found = blocking(self, move |w| w.find_files(&pattern, &options))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| FindFilesArgument::Path,
                    |reason| FindFilesError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        Ok(FindFilesOutput {
            files: found
                .files
                .into_iter()
                .map(|f| FindFilesOutputFiles {
                    path: f.path,
                    size: f.size,
                })
                .collect(),
            truncated: found.truncated,
            hint: found.hint,
        })
    }

    async fn file_info(
        &self,
        args: FileInfoArgs,
        _cx: Context,
    ) -> Result<FileInfoOutput, FileInfoError> {
        let path = args.path.clone();
        let info = blocking(self, move |w| w.file_info(&path))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| FileInfoArgument::Path,
                    |reason| FileInfoError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        Ok(FileInfoOutput {
            path: info.path,
            kind: kind(info.kind),
            symlink: info.symlink,
            size: info.size,
            modified: info.modified,
            read_only: info.read_only,
            version: info.version,
            total_lines: info.total_lines,
        })
    }

    async fn write_file(
        &self,
        args: WriteFileArgs,
        cx: Context,
    ) -> Result<WriteFileOutput, WriteFileError> {
        let WriteFileArgs {
            path,
            content,
            version,
        } = args;
        let shown = path.clone();
        let written = blocking(self, move |w| {
            w.write_file(&path, &content, version.as_deref())
        })
        .await
        .map_err(|e| {
            let concerned = |e: &ContractError| match e {
                ContractError::StaleVersion { .. } => WriteFileArgument::Version,
                _ => WriteFileArgument::Path,
            };
            declared(e, concerned, |reason| WriteFileError::IoFailed {
                path: shown,
                reason,
            })
        })?;
        changed(&cx, &written.path, "written").await;
        Ok(WriteFileOutput {
            path: written.path,
            version: written.version,
            created: written.created,
        })
    }

    async fn create_directory(
        &self,
        args: CreateDirectoryArgs,
        _cx: Context,
    ) -> Result<CreateDirectoryOutput, CreateDirectoryError> {
        let path = args.path.clone();
        let created = blocking(self, move |w| w.create_directory(&path))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| CreateDirectoryArgument::Path,
                    |reason| CreateDirectoryError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        Ok(CreateDirectoryOutput {
            path: workspace_path(&args.path),
            created,
        })
    }

    async fn edit_file(
        &self,
        args: EditFileArgs,
        cx: Context,
    ) -> Result<EditFileOutput, EditFileError> {
        let EditFileArgs {
            path,
            version,
            edits,
            dry_run,
        } = args;
        let edits: Vec<workspace::Edit> = edits
            .into_iter()
            .map(|e| workspace::Edit {
                old_text: e.old_text,
                new_text: e.new_text,
            })
            .collect();
        let shown = path.clone();
        let edited = blocking(self, move |w| w.edit_file(&path, &version, &edits, dry_run))
            .await
            .map_err(|e| {
                let concerned = |e: &ContractError| match e {
                    ContractError::StaleVersion { .. } => EditFileArgument::Version,
                    ContractError::NoMatch { .. }
                    | ContractError::AmbiguousMatch { .. }
                    | ContractError::InvalidEdit { .. } => EditFileArgument::Edits,
                    _ => EditFileArgument::Path,
                };
                declared(e, concerned, |reason| EditFileError::IoFailed {
                    path: shown,
                    reason,
                })
            })?;
        if edited.applied {
            changed(&cx, &edited.path, "edited").await;
        }
        Ok(EditFileOutput {
            path: edited.path,
            diff: edited.diff,
            diff_truncated: edited.diff_truncated,
            version: edited.version,
            applied: edited.applied,
        })
    }

    async fn apply_edits(
        &self,
        args: ApplyEditsArgs,
        cx: Context,
    ) -> Result<ApplyEditsOutput, ApplyEditsError> {
        let dry_run = args.dry_run;
        // The fallback error names the first file: an error that reaches it is not tied to one.
        let first = args
            .files
            .first()
            .map(|f| f.path.clone())
            .unwrap_or_default();
        let files: Vec<workspace::FileEdits> = args
            .files
            .into_iter()
            .map(|file| workspace::FileEdits {
                path: file.path,
                version: file.version,
                edits: file
                    .edits
                    .into_iter()
                    .map(|e| workspace::Edit {
                        old_text: e.old_text,
                        new_text: e.new_text,
                    })
                    .collect(),
            })
            .collect();
        let edited = blocking(self, move |w| w.apply_edits(&files, dry_run))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |_| ApplyEditsArgument::Files,
                    |reason| ApplyEditsError::IoFailed {
                        path: first,
                        reason,
                    },
                )
            })?;
        for file in edited.iter().filter(|file| file.applied) {
            changed(&cx, &file.path, "edited").await;
        }
        Ok(ApplyEditsOutput {
            applied: edited.iter().any(|file| file.applied),
            files: edited
                .into_iter()
                .map(|file| ApplyEditsOutputFiles {
                    path: file.path,
                    diff: file.diff,
                    diff_truncated: file.diff_truncated,
                    version: file.version,
                })
                .collect(),
        })
    }

    async fn move_path(
        &self,
        args: MovePathArgs,
        cx: Context,
    ) -> Result<MovePathOutput, MovePathError> {
        let (from, to) = (args.from.clone(), args.to.clone());
        let moved = blocking(self, move |w| Ok(w.move_path(&from, &to)))
            .await
            .map_err(|e| (workspace::MoveEnd::From, e))
            .and_then(|moved| moved)
            .map_err(|(end, e)| {
                let concerned = |_: &ContractError| match end {
                    workspace::MoveEnd::From => MovePathArgument::From,
                    workspace::MoveEnd::To => MovePathArgument::To,
                };
                declared(e, concerned, |reason| MovePathError::IoFailed {
                    path: args.from.clone(),
                    reason,
                })
            })?;
        changed(&cx, &workspace_path(&args.from), "moved away").await;
        changed(&cx, &workspace_path(&args.to), "moved here").await;
        Ok(MovePathOutput {
            from: workspace_path(&args.from),
            to: workspace_path(&args.to),
            kind: kind(moved),
        })
    }

    async fn delete_path(
        &self,
        args: DeletePathArgs,
        cx: Context,
    ) -> Result<DeletePathOutput, DeletePathError> {
        // Asked first, before anything is touched: on 2026-07-28 everything before the
        // answer runs again when the client calls back with it.
        if args.recursive && cx.can(Capability::Elicitation) {
            let confirmed = matches!(
                ConfirmDelete::ask(&cx, &args.path).await,
                Ok(Answer::Accept(ConfirmDelete { confirm: true }))
            );
            if !confirmed {
                return Err(DeletePathError::NotConfirmed {
                    path: args.path.clone(),
                });
            }
        }
        let (path, recursive) = (args.path.clone(), args.recursive);
        let deleted = blocking(self, move |w| w.delete_path(&path, recursive))
            .await
            .map_err(|e| {
                declared(
                    e,
                    |e| match e {
                        ContractError::RecursiveRequired { .. } => DeletePathArgument::Recursive,
                        _ => DeletePathArgument::Path,
                    },
                    |reason| DeletePathError::IoFailed {
                        path: args.path.clone(),
                        reason,
                    },
                )
            })?;
        changed(&cx, &workspace_path(&args.path), "deleted").await;
        Ok(DeletePathOutput {
            path: workspace_path(&args.path),
            kind: kind(deleted),
        })
    }

    async fn tree_resource(&self, _cx: Context) -> Result<ResourceBody, ResourceError> {
        let tree = blocking(self, |w| {
            w.directory_tree(".", &workspace::TreeOptions::default())
        })
        .await
        .map_err(resource_error)?;
        let mut text = String::new();
        for entry in &tree.entries {
            let indent = "  ".repeat(entry.depth.saturating_sub(1) as usize);
            let slash = if entry.kind == workspace::EntryKind::Directory {
                "/"
            } else {
                ""
            };
            text.push_str(&format!("{indent}{}{slash}\n", entry.name));
        }
        if let Some(hint) = tree.hint {
            text.push_str(&format!("… {hint}\n"));
        }
        Ok(ResourceBody::Text(text))
    }

    async fn file_resource(
        &self,
        params: FileParams,
        _cx: Context,
    ) -> Result<ResourceBody, ResourceError> {
        let path = params.path;
        let file = blocking(self, move |w| w.read_file(&path, None, None))
            .await
            .map_err(resource_error)?;
        Ok(ResourceBody::Text(file.content))
    }

    async fn review_file_prompt(
        &self,
        args: ReviewFilePromptArgs,
        _cx: Context,
    ) -> Result<Vec<PromptMessage>, PromptError> {
        let path = args.path.clone();
        let file = blocking(self, move |w| w.read_file(&path, None, None))
            .await
            .map_err(|e| PromptError::Invalid(e.to_string()))?;
        let focus = args
            .focus
            .map(|f| format!(" Look most closely at {f}."))
            .unwrap_or_default();
        let uri = FileParams {
            path: file.path.clone(),
        }
        .uri();
        Ok(vec![
            PromptMessage::resource(
                Role::User,
                uri,
                "text/plain",
                ResourceBody::Text(file.content),
            ),
            PromptMessage::text(
                Role::User,
                format!(
                    "Review `{}` above: say what should change and why, most important first, \
                     quoting the lines you mean.{focus}",
                    file.path
                ),
            ),
        ])
    }

    async fn complete_review_file_path(&self, request: Completing, _cx: Context) -> Vec<String> {
        complete_path(self, request.value).await
    }

    async fn complete_file_path(&self, request: Completing, _cx: Context) -> Vec<String> {
        complete_path(self, request.value).await
    }
}

/// The workspace files whose path starts with `typed`, in path order, looked for in the
/// directory `typed` names so far; nothing when that is not a directory.
async fn complete_path(workspace: &Workspace, typed: String) -> Vec<String> {
    let dir = typed
        .rsplit_once('/')
        .map_or(".", |(dir, _)| dir)
        .to_owned();
    let options = workspace::FindOptions {
        path: if dir.is_empty() { ".".into() } else { dir },
        limit: workspace::MAX_FIND_LIMIT,
        ..workspace::FindOptions::default()
    };
    let found = blocking(workspace, move |w| w.find_files("**", &options)).await;
    found
        .map(|found| found.files.into_iter().map(|f| f.path))
        .into_iter()
        .flatten()
        .filter(|path| path.starts_with(&typed))
        .collect()
}

/// A workspace error as a resource read's error: what does not exist is not found, what
/// cannot be read as a resource says why.
fn resource_error(error: WorkspaceError) -> ResourceError {
    match error {
        WorkspaceError::NotFound { .. } => ResourceError::NotFound,
        WorkspaceError::Io { .. } => ResourceError::Failed(error.to_string()),
        other => ResourceError::Invalid(other.to_string()),
    }
}

/// What an entry is, in the contract's terms.
fn kind(kind: workspace::EntryKind) -> EntryKind {
    match kind {
        workspace::EntryKind::File => EntryKind::File,
        workspace::EntryKind::Directory => EntryKind::Directory,
        workspace::EntryKind::Symlink => EntryKind::Symlink,
        workspace::EntryKind::Other => EntryKind::Other,
    }
}

/// The canonical spelling of a path the operation has already accepted (`./a//b` is `a/b`),
/// so results name paths the same way listings do.
fn workspace_path(raw: &str) -> String {
    workspace::canonical_path(raw).unwrap_or_else(|| raw.to_owned())
}

/// Runs a blocking workspace operation on tokio's blocking pool, so a slow disk or a large
/// search never stalls the server's other requests. A panic inside is re-raised here, where
/// the runtime turns it into an `internal_error` result.
/// Says that the file at `path` (workspace-relative) changed: a log message to the client, and
/// `notifications/resources/updated` to the clients subscribed to its resource.
async fn changed(cx: &Context, path: &str, how: &str) {
    cx.info(&format!("{path}: {how}")).await;
    let file = FileParams {
        path: path.to_owned(),
    };
    cx.resource_updated(&file.uri()).await;
}

/// How often a long walk reports how far it got.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// Runs `work`, a walk under `watch`, reporting how many entries it has looked at as progress
/// (the total is not known before the walk ends) and stopping it when the client cancels.
async fn watched<T>(cx: &Context, watch: &Watch, what: &str, work: impl Future<Output = T>) -> T {
    let mut work = std::pin::pin!(work);
    let mut ticks = tokio::time::interval(PROGRESS_EVERY);
    loop {
        tokio::select! {
            done = &mut work => return done,
            () = cx.cancelled(), if !watch.stopped() => watch.stop(),
            _ = ticks.tick() => {
                cx.progress(watch.visited() as f64, None, Some(what)).await;
            }
        }
    }
}

async fn blocking<T, F>(workspace: &Workspace, operation: F) -> Result<T, WorkspaceError>
where
    T: Send + 'static,
    F: FnOnce(&Workspace) -> Result<T, WorkspaceError> + Send + 'static,
{
    let workspace = workspace.clone();
    match tokio::task::spawn_blocking(move || operation(&workspace)).await {
        Ok(result) => result,
        Err(join) if join.is_panic() => std::panic::resume_unwind(join.into_panic()),
        Err(_) => Err(WorkspaceError::Io {
            path: ".".into(),
            message: "the server is shutting down".into(),
        }),
    }
}

/// The workspace's errors in the contract's vocabulary.
impl From<WorkspaceError> for ContractError {
    fn from(error: WorkspaceError) -> Self {
        match error {
            WorkspaceError::NotFound { path } => ContractError::NotFound { path },
            WorkspaceError::NotADirectory { path } => ContractError::NotADirectory { path },
            WorkspaceError::NotAFile { path, kind } => ContractError::NotAFile {
                path,
                kind: match kind {
                    workspace::EntryKind::Directory => "a directory",
                    workspace::EntryKind::Symlink => "a symbolic link",
                    workspace::EntryKind::File => "a file",
                    workspace::EntryKind::Other => "a special file (a pipe, socket or device)",
                }
                .into(),
            },
            WorkspaceError::InvalidPath { path, reason } => {
                ContractError::InvalidPath { path, reason }
            }
            WorkspaceError::OutsideRoot { path } => ContractError::OutsideWorkspace { path },
            WorkspaceError::TooLarge { path, size, limit } => {
                ContractError::TooLarge { path, size, limit }
            }
            WorkspaceError::OverBudget {
                path,
                size,
                used,
                limit,
            } => ContractError::OverBudget {
                path,
                size,
                used,
                limit,
            },
            WorkspaceError::NotText { path } => ContractError::NotText { path },
            WorkspaceError::LineRange {
                path,
                reason,
                total_lines,
            } => ContractError::BadLineRange {
                path,
                reason,
                total_lines,
            },
            WorkspaceError::InvalidPattern { pattern, reason } => {
                ContractError::InvalidPattern { pattern, reason }
            }
            WorkspaceError::StaleVersion { path, reason } => {
                ContractError::StaleVersion { path, reason }
            }
            WorkspaceError::AlreadyExists { path } => ContractError::AlreadyExists { path },
            WorkspaceError::NoMatch { path, index } => ContractError::NoMatch { index, path },
            WorkspaceError::AmbiguousMatch { path, index, count } => {
                ContractError::AmbiguousMatch { index, count, path }
            }
            WorkspaceError::InvalidEdit {
                path,
                index,
                reason,
            } => ContractError::InvalidEdit {
                index,
                path,
                reason,
            },
            WorkspaceError::RecursiveRequired { path } => ContractError::RecursiveRequired { path },
            WorkspaceError::Io { path, message } => ContractError::IoFailed {
                path,
                reason: message,
            },
            WorkspaceError::RootUnavailable { reason } => ContractError::IoFailed {
                path: ".".into(),
                reason,
            },
        }
    }
}

/// Narrows a workspace error to the codes one tool declares, naming the argument `concerned`
/// picks for it when its code names one (`argument: true` in `tools.yaml`). An operation only
/// meets the errors its tool declares; anything else would be a bug here, and is still
/// reported inside the tool's contract, through `undeclared`.
fn declared<E, A>(
    error: WorkspaceError,
    concerned: impl FnOnce(&ContractError) -> A,
    undeclared: impl FnOnce(String) -> E,
) -> E
where
    E: TryFrom<(ContractError, A), Error = ContractError>,
{
    let error = ContractError::from(error);
    let argument = concerned(&error);
    E::try_from((error, argument)).unwrap_or_else(|other| undeclared(other.to_string()))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[tokio::test]
    async fn not_a_file_names_what_the_path_is() {
        let root = tempfile::tempdir().expect("a temporary directory");
        std::fs::create_dir(root.path().join("dir")).expect("created");
        // A socket is a special file that std can make without help.
        let _socket =
            std::os::unix::net::UnixListener::bind(root.path().join("sock")).expect("a socket");
        let workspace = Workspace::open(root.path()).expect("opened");
        let read = |path: &str| ReadFileArgs {
            path: path.into(),
            start_line: None,
            end_line: None,
        };
        let err = Tools::read_file(&workspace, read("sock"), Context::detached())
            .await
            .expect_err("a socket is no file");
        assert_eq!(err.code(), "not_a_file");
        assert_eq!(
            err.message(),
            "`sock` is a special file (a pipe, socket or device), not a regular file."
        );
        let err = Tools::write_file(
            &workspace,
            WriteFileArgs {
                path: "sock".into(),
                content: String::new(),
                version: None,
            },
            Context::detached(),
        )
        .await
        .expect_err("a socket is no file");
        assert!(err.message().contains("special file"), "{}", err.message());
        let err = Tools::read_file(&workspace, read("dir"), Context::detached())
            .await
            .expect_err("a directory is no file");
        assert_eq!(err.message(), "`dir` is a directory, not a regular file.");
    }
}
