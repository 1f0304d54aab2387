//! One run of a handler on 2026-07-28: the answers it can have, the questions it asked
//! without one, and the moment it waits for one, which ends the run.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Mutex;
use std::task::{Poll, Waker};

use rmcp::model::{InputRequest, InputRequests, InputResponses};
use serde_json::Value;
use tokio::sync::watch;

/// A handler's run: see [the module](super).
pub(crate) struct Round {
    /// The answers known: the earlier rounds' (from the state), then the client's new ones.
    known: BTreeMap<String, Value>,
    inner: Mutex<Inner>,
    /// Becomes `true` when the run has ended; a question waiting outside the handler's
    /// future (in a spawned task) then returns.
    over: watch::Sender<bool>,
}

#[derive(Default)]
struct Inner {
    /// Asked without an answer: the next input-required result's questions.
    asked: InputRequests,
    /// Answers the handler read: the next state's.
    used: BTreeMap<String, Value>,
    /// An answer that is not one to its question: `(id, why)`.
    malformed: Option<(String, String)>,
    /// The run waits for an answer it does not have.
    waiting: bool,
    /// Wakes the run's driver when a question is asked from outside its future.
    driver: Option<Waker>,
}

/// How a run ended.
pub(crate) enum Ended<T> {
    /// The handler finished.
    Finished(T),
    /// The handler waits for answers: ask them.
    Asks {
        questions: InputRequests,
        answers: BTreeMap<String, Value>,
    },
    /// An answer is not one to its question: `(id, why)`.
    Malformed(String, String),
}

impl Round {
    /// A run with the earlier rounds' `answers` and the client's `responses`; an answer to
    /// the same question in both keeps the earlier, sealed one.
    pub(crate) fn new(answers: BTreeMap<String, Value>, responses: Option<InputResponses>) -> Self {
        let mut known = responses.unwrap_or_default();
        known.extend(answers);
        Round {
            known,
            inner: Mutex::new(Inner::default()),
            over: watch::channel(false).0,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The answer to `id`, when the client gave one; recorded as used.
    pub(crate) fn answer(&self, id: &str) -> Option<Value> {
        let value = self.known.get(id)?.clone();
        self.lock().used.insert(id.to_owned(), value.clone());
        Some(value)
    }

    /// Asks `question` as `id` and waits until the run is over (the handler's future is
    /// dropped first, so this returns only where the question waited outside it).
    pub(crate) async fn wait_for(&self, id: &str, question: InputRequest) {
        {
            let mut inner = self.lock();
            inner.asked.entry(id.to_owned()).or_insert(question);
            self.stop(&mut inner);
        }
        self.over_().await;
    }

    /// The answer to `id` is not one to its question: ends the run with that.
    pub(crate) async fn reject(&self, id: &str, why: String) {
        {
            let mut inner = self.lock();
            inner.malformed.get_or_insert((id.to_owned(), why));
            self.stop(&mut inner);
        }
        self.over_().await;
    }

    fn stop(&self, inner: &mut Inner) {
        inner.waiting = true;
        if let Some(driver) = inner.driver.take() {
            driver.wake();
        }
    }

    async fn over_(&self) {
        let mut over = self.over.subscribe();
        let _ = over.wait_for(|over| *over).await;
    }

    /// Runs `handler` until it finishes or waits for an answer it does not have, whichever
    /// comes first.
    pub(crate) async fn drive<T>(&self, handler: impl Future<Output = T>) -> Ended<T> {
        let ended = {
            // The handler's future is dropped at the end of this block, before the run is
            // declared over.
            let mut handler = std::pin::pin!(handler);
            std::future::poll_fn(|cx| {
                if let Poll::Ready(value) = handler.as_mut().poll(cx) {
                    return Poll::Ready(Some(value));
                }
                let mut inner = self.lock();
                if inner.waiting {
                    return Poll::Ready(None);
                }
                inner.driver = Some(cx.waker().clone());
                Poll::Pending
            })
            .await
        };
        self.over.send_replace(true);
        let mut inner = self.lock();
        match ended {
            Some(value) => Ended::Finished(value),
            None => match inner.malformed.take() {
                Some((id, why)) => Ended::Malformed(id, why),
                None => Ended::Asks {
                    questions: std::mem::take(&mut inner.asked),
                    answers: std::mem::take(&mut inner.used),
                },
            },
        }
    }
}
