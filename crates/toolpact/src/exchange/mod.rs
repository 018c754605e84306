//! What the drivers and the providers exchange, in neutral form: a tool call, a request ready
//! for a provider's builder, and a response as a provider's reader fills it.

pub(crate) mod call;
pub(crate) mod request;
pub(crate) mod response;
