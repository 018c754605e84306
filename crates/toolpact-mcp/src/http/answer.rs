//! An answer's body, and the head of an event stream held back to go out with its first events.
//!
//! rmcp answers a request with an event stream before the request is handled, and opens it with
//! an event that only primes the client (an event id and a retry time, no data) when the session
//! keeps events for resumption. hyper writes what it has whenever the body has nothing more
//! ready: the head (with that event) went out in one write, the answer to the call in a second,
//! and the stream's end, when it came a moment later, in a third. The head and the first events
//! now wait until the stream ends, for at most [`HEAD_HOLD`] and [`HEAD_HOLD_BYTES`]: a call
//! answered within that time goes out in one write (one system call, one segment for the client
//! to read), and a slower one, or a stream that stays open, gets what it has after [`HEAD_HOLD`],
//! then each event as it comes.

use axum::body::{Body, Bytes};
use futures::FutureExt;
use hyper::body::{Body as _, Frame, SizeHint};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

/// How long the head of an event stream and its first events wait for the stream's end.
pub(super) const HEAD_HOLD: Duration = Duration::from_millis(10);

/// How much of an event stream's first events is held at most.
pub(super) const HEAD_HOLD_BYTES: usize = 64 * 1024;

/// An answer's body, which keeps `G` (what counts its request answered) until it is written
/// whole or dropped, and which holds the head of an event stream with its first events (see the
/// module's documentation).
pub(super) struct Answer<G> {
    body: Body,
    hold: Hold,
    _answering: G,
}

/// Where an answer's body is in holding its first events.
enum Hold {
    /// Not an event stream, or its hold is over: frames pass as they come.
    Off,
    /// The data read so far, and the end of the hold, once the body had nothing ready.
    Holding {
        held: Held,
        until: Option<Pin<Box<tokio::time::Sleep>>>,
    },
    /// The data held, to be given next, and what comes after it.
    Queued { data: Bytes, then: Then },
    /// What to give next.
    Next(Then),
}

/// The data of the first events.
enum Held {
    Nothing,
    One(Bytes),
    Joined(Vec<u8>),
}

impl Held {
    fn len(&self) -> usize {
        match self {
            Held::Nothing => 0,
            Held::One(data) => data.len(),
            Held::Joined(data) => data.len(),
        }
    }

    fn add(&mut self, data: Bytes) {
        *self = match std::mem::replace(self, Held::Nothing) {
            Held::Nothing => Held::One(data),
            Held::One(first) => {
                let mut joined = Vec::with_capacity(first.len() + data.len());
                joined.extend_from_slice(&first);
                joined.extend_from_slice(&data);
                Held::Joined(joined)
            }
            Held::Joined(mut joined) => {
                joined.extend_from_slice(&data);
                Held::Joined(joined)
            }
        };
    }

    /// What to give: the data held, then `then`.
    fn then(self, then: Then) -> Hold {
        match self {
            Held::Nothing => Hold::Next(then),
            Held::One(data) => Hold::Queued { data, then },
            Held::Joined(data) => Hold::Queued {
                data: Bytes::from(data),
                then,
            },
        }
    }
}

/// What a body gives after the data held.
enum Then {
    /// Whatever the body gives next.
    Body,
    /// Its end.
    End,
    /// A frame that is not data (trailers), or an error.
    Item(Box<Result<Frame<Bytes>, axum::Error>>),
}

impl<G> Answer<G> {
    /// The body of an answer, which keeps `answering`; `event_stream` says whether it is an
    /// event stream, whose head and first events are held.
    pub(super) fn new(body: Body, event_stream: bool, answering: G) -> Answer<G> {
        Answer {
            body,
            hold: if event_stream {
                Hold::Holding {
                    held: Held::Nothing,
                    until: None,
                }
            } else {
                Hold::Off
            },
            _answering: answering,
        }
    }

    /// Reads the body ahead until it ends, or the hold is over; pending while the hold lasts.
    fn poll_hold(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let Hold::Holding { held, until } = &mut self.hold else {
            return Poll::Ready(());
        };
        let then = loop {
            match Pin::new(&mut self.body).poll_frame(cx) {
                Poll::Ready(Some(Ok(frame))) => match frame.into_data() {
                    Ok(data) => {
                        held.add(data);
                        if held.len() >= HEAD_HOLD_BYTES {
                            break Then::Body;
                        }
                    }
                    Err(frame) => break Then::Item(Box::new(Ok(frame))),
                },
                Poll::Ready(Some(Err(e))) => break Then::Item(Box::new(Err(e))),
                Poll::Ready(None) => break Then::End,
                Poll::Pending => {
                    let until =
                        until.get_or_insert_with(|| Box::pin(tokio::time::sleep(HEAD_HOLD)));
                    ready!(until.as_mut().poll(cx));
                    break Then::Body;
                }
            }
        };
        let held = std::mem::replace(held, Held::Nothing);
        self.hold = held.then(then);
        Poll::Ready(())
    }
}

impl<G: Unpin> hyper::body::Body for Answer<G> {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.get_mut();
        loop {
            match std::mem::replace(&mut this.hold, Hold::Off) {
                Hold::Off | Hold::Next(Then::Body) => {
                    return Pin::new(&mut this.body).poll_frame(cx);
                }
                Hold::Queued { data, then } => {
                    this.hold = Hold::Next(then);
                    return Poll::Ready(Some(Ok(Frame::data(data))));
                }
                Hold::Next(Then::End) => return Poll::Ready(None),
                Hold::Next(Then::Item(item)) => return Poll::Ready(Some(*item)),
                hold @ Hold::Holding { .. } => {
                    this.hold = hold;
                    ready!(this.poll_hold(cx));
                }
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.hold {
            Hold::Off | Hold::Next(Then::Body) => self.body.is_end_stream(),
            Hold::Next(Then::End) => true,
            Hold::Holding { .. } | Hold::Queued { .. } | Hold::Next(Then::Item(_)) => false,
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.hold {
            Hold::Off | Hold::Next(Then::Body) => self.body.size_hint(),
            Hold::Next(Then::End) => SizeHint::with_exact(0),
            Hold::Holding { .. } | Hold::Queued { .. } | Hold::Next(Then::Item(_)) => {
                SizeHint::default()
            }
        }
    }
}

/// The future of an answer, given to hyper once its body's hold is over: hyper writes an
/// answer's head at once, so the head waits with the body's first events.
pub(super) fn settled<F, G>(
    answer: F,
) -> impl Future<Output = Result<http::Response<Answer<G>>, Infallible>> + Send
where
    F: Future<Output = Result<http::Response<Answer<G>>, Infallible>> + Send,
    G: Send + Unpin,
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

#[cfg(test)]
mod tests {
    use super::*;
    use futures::channel::mpsc;
    use futures::{SinkExt, StreamExt};

    /// A frame of the body, or its error, or its end.
    type Item = Option<Result<Frame<Bytes>, axum::Error>>;

    const PRIMING: &str = "data: \nid: 0/0\nretry: 3000\n\n";
    const RESULT: &str = "data: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\nid: 1/0\n\n";

    /// The answer of an event stream or not, with `events` already sent; the sender of its
    /// next events unless `end`, which ends the body after them.
    async fn answer(
        event_stream: bool,
        events: &[&str],
        end: bool,
    ) -> (Option<mpsc::Sender<Bytes>>, Answer<()>) {
        let (mut sender, body) = mpsc::channel::<Bytes>(4);
        for event in events {
            sender
                .send(Bytes::copy_from_slice(event.as_bytes()))
                .await
                .unwrap();
        }
        let body = Body::from_stream(body.map(Ok::<_, Infallible>));
        let answer = Answer::new(body, event_stream, ());
        ((!end).then_some(sender), answer)
    }

    /// What hyper is given: the answer's body once its head may be written.
    async fn settle(answer: Answer<()>) -> Answer<()> {
        let response = Ok::<_, Infallible>(http::Response::new(answer));
        settled(std::future::ready(response))
            .await
            .unwrap()
            .into_body()
    }

    /// The body's frames as text until it ends, pending ones waited for.
    async fn frames(mut answer: Answer<()>) -> Vec<String> {
        let mut frames = Vec::new();
        while let Some(frame) = next(&mut answer).await {
            let data = frame.unwrap().into_data().unwrap();
            frames.push(String::from_utf8(data.to_vec()).unwrap());
        }
        frames
    }

    async fn next(answer: &mut Answer<()>) -> Item {
        std::future::poll_fn(|cx| Pin::new(&mut *answer).poll_frame(cx)).await
    }

    #[tokio::test(start_paused = true)]
    async fn an_answer_ready_in_time_goes_out_with_its_head_and_priming_event() {
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

        // Without a priming event, and with the end a moment after the answer.
        let (events, body) = answer(true, &[], false).await;
        let settling = tokio::spawn(settle(body));
        let mut events = events.unwrap();
        events.send(Bytes::from(RESULT)).await.unwrap();
        tokio::time::sleep(Duration::from_millis(1)).await;
        assert!(!settling.is_finished(), "the head waits for the end");
        drop(events);
        assert_eq!(frames(settling.await.unwrap()).await, [RESULT]);
    }

    #[tokio::test(start_paused = true)]
    async fn a_slow_answer_gets_its_head_and_priming_event_after_the_hold() {
        let (events, body) = answer(true, &[PRIMING], false).await;
        let started = tokio::time::Instant::now();
        let mut body = settle(body).await;
        assert_eq!(started.elapsed(), HEAD_HOLD, "held as long as the hold");
        let first = next(&mut body).await.unwrap().unwrap();
        assert_eq!(first.into_data().unwrap(), PRIMING);
        let mut events = events.unwrap();
        events.send(Bytes::from(RESULT)).await.unwrap();
        assert_eq!(
            next(&mut body).await.unwrap().unwrap().into_data().unwrap(),
            RESULT,
            "after the hold, each event as it comes"
        );
        drop(events);
        assert!(next(&mut body).await.is_none());

        // Nothing at all in time: the head goes out alone.
        let (events, body) = answer(true, &[], false).await;
        let started = tokio::time::Instant::now();
        let body = settle(body).await;
        assert_eq!(started.elapsed(), HEAD_HOLD, "held as long as the hold");
        let mut events = events.unwrap();
        events.send(Bytes::from(PRIMING)).await.unwrap();
        drop(events);
        assert_eq!(frames(body).await, [PRIMING]);
    }

    #[tokio::test(start_paused = true)]
    async fn no_more_than_the_byte_bound_is_held() {
        let large = "x".repeat(HEAD_HOLD_BYTES / 2 + 1);
        let (events, body) = answer(true, &[&large, &large, RESULT], false).await;
        let started = tokio::time::Instant::now();
        let mut body = settle(body).await;
        assert_eq!(started.elapsed(), Duration::ZERO, "not held past the bound");
        let first = next(&mut body).await.unwrap().unwrap();
        assert_eq!(first.into_data().unwrap().len(), 2 * large.len());
        drop(events);
        assert_eq!(frames(body).await, [RESULT]);
    }

    #[tokio::test]
    async fn other_bodies_pass_as_they_come() {
        // Not an event stream: not held, its chunks not joined.
        let (_, body) = answer(false, &[PRIMING, RESULT], true).await;
        assert_eq!(frames(settle(body).await).await, [PRIMING, RESULT]);

        // An event stream that ends after its priming event.
        let (_, body) = answer(true, &[PRIMING], true).await;
        assert_eq!(frames(settle(body).await).await, [PRIMING]);

        // An event stream that ends at once.
        let (_, body) = answer(true, &[], true).await;
        let body = settle(body).await;
        assert!(body.is_end_stream());
        assert!(frames(body).await.is_empty());
    }
}
