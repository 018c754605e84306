//! An answer's body, and the first event of an event stream held back to go out with the next.
//!
//! rmcp opens every event stream with an event that only primes the client (an event id and a
//! retry time, no data), before the request the stream answers is handled. hyper writes what it
//! has whenever the body has nothing more ready: the answer's head and that event went out in one
//! write, and the answer to the call in a second. The head and the priming event now wait until
//! the next event is ready, for at most [`PRIMING_HOLD`]: a call answered within that time goes
//! out in one write (one system call, one segment for the client to read), and a slower one gets
//! its head and priming event after [`PRIMING_HOLD`], then its answer when it comes.

use super::Answering;
use axum::body::{Body, Bytes};
use futures::FutureExt;
use hyper::body::{Body as _, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

/// How long the head of an event stream and its priming event wait for the stream's next event.
pub(super) const PRIMING_HOLD: Duration = Duration::from_millis(10);

/// A frame of the body, or its error, or its end.
type Item = Option<Result<Frame<Bytes>, axum::Error>>;

/// An answer's body, which counts its request answered until it is written whole (or dropped),
/// and which holds the priming event of an event stream (see the module's documentation).
pub(super) struct Answer {
    body: Body,
    hold: Hold,
    _answer: Answering,
}

/// Where an answer's body is in holding its first event.
enum Hold {
    /// Not an event stream, or its first event is past: frames pass as they come.
    Off,
    /// An event stream whose first frame has not been read.
    First,
    /// The first event only primes the client: held until `until`, or until the next frame.
    Held {
        event: Bytes,
        until: Pin<Box<tokio::time::Sleep>>,
    },
    /// Data read ahead (the priming event, with the next event's data after it when it came in
    /// time), to be given next, and what comes after it.
    Queued { data: Bytes, then: Then },
    /// What came first when it was not a priming event (or what came after the priming event
    /// and could not be joined to it), to be given next.
    Next(Then),
}

/// What a body gives after the data read ahead.
enum Then {
    /// Whatever the body gives next.
    Body,
    /// Its end.
    End,
    /// A frame that is not data (trailers), or an error.
    Item(Box<Result<Frame<Bytes>, axum::Error>>),
}

impl Then {
    fn of(item: Item) -> Then {
        match item {
            None => Then::End,
            Some(item) => Then::Item(Box::new(item)),
        }
    }
}

impl Answer {
    /// The body of an answer whose request is counted by `answer`; `event_stream` says whether
    /// it is an event stream, whose priming event is held.
    pub(super) fn new(body: Body, event_stream: bool, answer: Answering) -> Answer {
        Answer {
            body,
            hold: if event_stream { Hold::First } else { Hold::Off },
            _answer: answer,
        }
    }

    /// Reads the body ahead until it has something to give at once other than a lone priming
    /// event, or the hold is over; pending only while a priming event is held.
    fn poll_hold(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        loop {
            match &mut self.hold {
                Hold::Off | Hold::Queued { .. } | Hold::Next(_) => return Poll::Ready(()),
                Hold::First => {
                    let Poll::Ready(item) = Pin::new(&mut self.body).poll_frame(cx) else {
                        // No event yet: nothing to hold, the head goes out now.
                        self.hold = Hold::Off;
                        return Poll::Ready(());
                    };
                    self.hold = match item {
                        Some(Ok(frame)) => match frame.into_data() {
                            Ok(data) if primes_only(&data) => Hold::Held {
                                event: data,
                                until: Box::pin(tokio::time::sleep(PRIMING_HOLD)),
                            },
                            Ok(data) => Hold::Queued {
                                data,
                                then: Then::Body,
                            },
                            Err(frame) => Hold::Next(Then::Item(Box::new(Ok(frame)))),
                        },
                        item => Hold::Next(Then::of(item)),
                    };
                }
                Hold::Held { event, until } => {
                    let item = match Pin::new(&mut self.body).poll_frame(cx) {
                        Poll::Ready(item) => item,
                        Poll::Pending => {
                            ready!(until.as_mut().poll(cx));
                            self.hold = Hold::Queued {
                                data: std::mem::take(event),
                                then: Then::Body,
                            };
                            return Poll::Ready(());
                        }
                    };
                    let event = std::mem::take(event);
                    self.hold = match item {
                        Some(Ok(frame)) => match frame.into_data() {
                            Ok(data) => {
                                let mut joined = Vec::with_capacity(event.len() + data.len());
                                joined.extend_from_slice(&event);
                                joined.extend_from_slice(&data);
                                Hold::Queued {
                                    data: Bytes::from(joined),
                                    then: Then::Body,
                                }
                            }
                            Err(frame) => Hold::Queued {
                                data: event,
                                then: Then::Item(Box::new(Ok(frame))),
                            },
                        },
                        item => Hold::Queued {
                            data: event,
                            then: Then::of(item),
                        },
                    };
                }
            }
        }
    }
}

impl hyper::body::Body for Answer {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        loop {
            match std::mem::replace(&mut this.hold, Hold::Off) {
                Hold::Off => return Pin::new(&mut this.body).poll_frame(cx),
                Hold::Queued { data, then } => {
                    this.hold = Hold::Next(then);
                    return Poll::Ready(Some(Ok(Frame::data(data))));
                }
                Hold::Next(Then::Body) => {}
                Hold::Next(Then::End) => return Poll::Ready(None),
                Hold::Next(Then::Item(item)) => return Poll::Ready(Some(*item)),
                hold @ (Hold::First | Hold::Held { .. }) => {
                    this.hold = hold;
                    ready!(this.poll_hold(cx));
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.hold {
            Hold::Off | Hold::First | Hold::Next(Then::Body) => self.body.is_end_stream(),
            Hold::Next(Then::End) => true,
            Hold::Held { .. } | Hold::Queued { .. } | Hold::Next(Then::Item(_)) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.hold {
            Hold::Off | Hold::First | Hold::Next(Then::Body) => self.body.size_hint(),
            Hold::Next(Then::End) => SizeHint::with_exact(0),
            Hold::Held { .. } | Hold::Queued { .. } | Hold::Next(Then::Item(_)) => {
                SizeHint::default()
            }
        }
    }
}

/// The future of an answer, given to hyper once the body's priming event is settled: hyper
/// writes an answer's head at once, and the priming event is held only if the head waits too.
pub(super) fn settled<F>(
    answer: F,
) -> impl Future<Output = Result<http::Response<Answer>, Infallible>> + Send
where
    F: Future<Output = Result<http::Response<Answer>, Infallible>> + Send,
{
    answer.then(|answer| {
        let mut answer = Some(answer);
        futures::future::poll_fn(move |cx| {
            if let Some(Ok(response)) = &mut answer {
                ready!(response.body_mut().poll_hold(cx));
            }
            Poll::Ready(
                answer
                    .take()
                    .unwrap_or_else(|| unreachable!("an answer is given once")),
            )
        })
    })
}

/// Whether an event only primes the client: an id (and a retry time), no data.
fn primes_only(event: &[u8]) -> bool {
    let Some(lines) = event.strip_suffix(b"\n\n") else {
        return false;
    };
    let mut id = false;
    for line in lines.split(|&b| b == b'\n') {
        if line.starts_with(b"id:") {
            id = true;
        } else if !(line.starts_with(b"retry:") || line == b"data:" || line == b"data: ") {
            return false;
        }
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::HeadClock;
    use futures::channel::mpsc;
    use futures::{SinkExt, StreamExt};
    use std::sync::Arc;
    use tokio::sync::Semaphore;

    const PRIMING: &str = "data: \nid: 0/0\nretry: 3000\n\n";
    const RESULT: &str = "data: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\nid: 1/0\n\n";

    async fn answering() -> Answering {
        let permit = Arc::new(Semaphore::new(1)).acquire_owned().await.unwrap();
        Arc::new(HeadClock::new(permit)).head_read()
    }

    /// The answer of an event stream or not, with `events` already sent; the sender of its
    /// next events unless `end`, which ends the body after them.
    async fn answer(
        event_stream: bool,
        events: &[&'static str],
        end: bool,
    ) -> (Option<mpsc::Sender<Bytes>>, Answer) {
        let (mut sender, body) = mpsc::channel::<Bytes>(4);
        for event in events {
            sender.send(Bytes::from(*event)).await.unwrap();
        }
        let body = Body::from_stream(body.map(Ok::<_, Infallible>));
        let answer = Answer::new(body, event_stream, answering().await);
        ((!end).then_some(sender), answer)
    }

    /// What hyper is given: the answer's body once its head may be written.
    async fn settle(answer: Answer) -> Answer {
        let response = Ok::<_, Infallible>(http::Response::new(answer));
        settled(std::future::ready(response))
            .await
            .unwrap()
            .into_body()
    }

    /// The body's frames as text until it ends, pending ones waited for.
    async fn frames(mut answer: Answer) -> Vec<String> {
        let mut frames = Vec::new();
        while let Some(frame) = next(&mut answer).await {
            let data = frame.unwrap().into_data().unwrap();
            frames.push(String::from_utf8(data.to_vec()).unwrap());
        }
        frames
    }

    async fn next(answer: &mut Answer) -> Item {
        std::future::poll_fn(|cx| Pin::new(&mut *answer).poll_frame(cx)).await
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_ready_in_time_goes_out_with_its_priming_event() {
        let (events, body) = answer(true, &[PRIMING], false).await;
        let settling = tokio::spawn(settle(body));
        tokio::time::sleep(Duration::from_millis(1)).await;
        assert!(!settling.is_finished(), "the head waits for the answer");
        let mut events = events.unwrap();
        events.send(Bytes::from(RESULT)).await.unwrap();
        drop(events);
        let body = settling.await.unwrap();
        assert!(!body.is_end_stream());
        assert_eq!(frames(body).await, [format!("{PRIMING}{RESULT}")]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_slow_answer_gets_its_priming_event_after_the_hold() {
        let (events, body) = answer(true, &[PRIMING], false).await;
        let started = tokio::time::Instant::now();
        let mut body = settle(body).await;
        assert_eq!(started.elapsed(), PRIMING_HOLD, "held as long as the hold");
        let first = next(&mut body).await.unwrap().unwrap();
        assert_eq!(first.into_data().unwrap(), PRIMING);
        let mut events = events.unwrap();
        events.send(Bytes::from(RESULT)).await.unwrap();
        drop(events);
        assert_eq!(frames(body).await, [RESULT]);
    }

    #[tokio::test]
    async fn other_bodies_and_first_events_pass_as_they_come() {
        // Not an event stream: even a priming-like first chunk is not held.
        let (_, body) = answer(false, &[PRIMING], true).await;
        assert_eq!(frames(settle(body).await).await, [PRIMING]);

        // An event stream whose first event carries data.
        let (_, body) = answer(true, &[RESULT, RESULT], true).await;
        assert_eq!(frames(settle(body).await).await, [RESULT, RESULT]);

        // An event stream with nothing to give yet: its head is not held.
        let (events, body) = answer(true, &[], false).await;
        let body = tokio::time::timeout(Duration::from_secs(5), settle(body))
            .await
            .expect("not held for a first event");
        let mut events = events.unwrap();
        events.send(Bytes::from(PRIMING)).await.unwrap();
        drop(events);
        assert_eq!(frames(body).await, [PRIMING]);
    }

    #[tokio::test]
    async fn a_stream_that_ends_after_its_priming_event_ends_after_it() {
        let (_, body) = answer(true, &[PRIMING], true).await;
        assert_eq!(frames(settle(body).await).await, [PRIMING]);
    }

    #[test]
    fn a_priming_event_has_an_id_and_no_data() {
        assert!(primes_only(PRIMING.as_bytes()));
        assert!(primes_only(b"id: 7\n\n"));
        assert!(primes_only(b"data:\nid: 7\nretry: 10\n\n"));
        assert!(!primes_only(RESULT.as_bytes()));
        assert!(!primes_only(b"retry: 3000\n\n"), "no id");
        assert!(!primes_only(b"data: \nid: 0/0\n"), "not a whole event");
        assert!(!primes_only(b": keep-alive\nid: 1\n\n"));
    }
}
