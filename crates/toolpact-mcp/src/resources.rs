//! Resources a server serves (`resources/list`, `resources/read`, `resources/templates/list`):
//! fixed [`Resource`]s, text or binary, and [`ResourceTemplate`]s whose URIs carry variables
//! (RFC 6570 level 1, `test://items/{id}`) read by a function of those variables; and
//! [`Resources`], the handle that changes the fixed ones while the server runs and tells the
//! connected clients (`notifications/resources/list_changed`, `notifications/resources/updated`
//! to those subscribed): the sessions of the revisions up to 2025-11-25, and the
//! `subscriptions/listen` streams of 2026-07-28, each told what its filter accepted.

use crate::context::Session;
use rmcp::RoleServer;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::{Peer, SubscriptionSink};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock, Weak};
use toolpact::ToolError;

/// A resource the server serves through `resources/list` and `resources/read`: text, such as
/// the HTML template of a widget (`ui://widget/gifts.html`, MIME type `text/html+skybridge`),
/// or binary content ([`Resource::blob`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Resource {
    /// The resource's URI, as tools refer to it.
    pub uri: String,
    /// Its programmatic name.
    pub name: String,
    /// Its MIME type.
    pub mime_type: Option<String>,
    /// The content, for a text resource.
    pub text: String,
    /// The content, base64-encoded, for a binary resource; when set, it is served instead of
    /// `text`.
    pub blob: Option<String>,
    /// A title for people.
    pub title: Option<String>,
    /// What it is.
    pub description: Option<String>,
    /// `_meta` of the resource and of its contents (for example `openai/widgetDescription`).
    pub meta: Option<Map<String, Value>>,
}

impl Resource {
    /// A text resource with a URI, a name, a MIME type and its text.
    pub fn text(
        uri: impl Into<String>,
        name: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Self {
        Resource {
            uri: uri.into(),
            name: name.into(),
            mime_type: Some(mime_type.into()),
            text: text.into(),
            blob: None,
            title: None,
            description: None,
            meta: None,
        }
    }

    /// A binary resource with a URI, a name, a MIME type and its content, base64-encoded.
    pub fn blob(
        uri: impl Into<String>,
        name: impl Into<String>,
        mime_type: impl Into<String>,
        base64: impl Into<String>,
    ) -> Self {
        Resource {
            blob: Some(base64.into()),
            ..Resource::text(uri, name, mime_type, "")
        }
    }

    /// The same resource with a description.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The resource as `resources/list` lists it.
    pub(crate) fn listed(&self) -> Value {
        let mut listed = json!({"uri": self.uri, "name": self.name});
        set_present(
            &mut listed,
            [
                ("mimeType", &self.mime_type),
                ("title", &self.title),
                ("description", &self.description),
            ],
        );
        if let Some(meta) = &self.meta {
            listed["_meta"] = Value::Object(meta.clone());
        }
        listed
    }

    /// The resource's contents, as one item of a `resources/read` result.
    pub(crate) fn contents(&self) -> Value {
        let mut contents = json!({"uri": self.uri});
        if let Some(mime_type) = &self.mime_type {
            contents["mimeType"] = json!(mime_type);
        }
        match &self.blob {
            Some(blob) => contents["blob"] = json!(blob),
            None => contents["text"] = json!(self.text),
        }
        if let Some(meta) = &self.meta {
            contents["_meta"] = Value::Object(meta.clone());
        }
        contents
    }
}

/// The variables of a URI that matched a [`ResourceTemplate`], by name.
pub type UriVariables = BTreeMap<String, String>;

type Read = dyn Fn(&str, &UriVariables) -> Result<Resource, ToolError> + Send + Sync;

/// Resources whose URIs follow a template (`test://template/{id}/data`): listed once by
/// `resources/templates/list`, and read by a function that receives the URI and its
/// variables.
///
/// ```
/// use toolpact_mcp::{Resource, ResourceTemplate};
///
/// let notes = ResourceTemplate::new("notes://{id}", "note", |uri, vars| {
///     Ok(Resource::text(uri, "note", "text/plain", format!("Note {}", vars["id"])))
/// })
/// .with_completion("id", ["1", "2", "3"]);
/// ```
#[derive(Clone)]
pub struct ResourceTemplate {
    pub(crate) uri_template: String,
    name: String,
    title: Option<String>,
    description: Option<String>,
    mime_type: Option<String>,
    pub(crate) completions: BTreeMap<String, Vec<String>>,
    read: Arc<Read>,
}

impl fmt::Debug for ResourceTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ResourceTemplate")
            .field("uri_template", &self.uri_template)
            .field("name", &self.name)
            .finish_non_exhaustive()
    }
}

impl ResourceTemplate {
    /// A template with its URI template, a name, and the function that reads a matching URI.
    /// Each `{variable}` matches one or more characters other than `/`.
    pub fn new<F>(uri_template: impl Into<String>, name: impl Into<String>, read: F) -> Self
    where
        F: Fn(&str, &UriVariables) -> Result<Resource, ToolError> + Send + Sync + 'static,
    {
        ResourceTemplate {
            uri_template: uri_template.into(),
            name: name.into(),
            title: None,
            description: None,
            mime_type: None,
            completions: BTreeMap::new(),
            read: Arc::new(read),
        }
    }

    /// What the resources are.
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The MIME type of every resource of the template.
    pub fn with_mime_type(mut self, mime_type: impl Into<String>) -> Self {
        self.mime_type = Some(mime_type.into());
        self
    }

    /// A title for people.
    pub fn with_title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// The values `completion/complete` suggests for a variable.
    pub fn with_completion<I, S>(mut self, variable: impl Into<String>, values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.completions.insert(
            variable.into(),
            values.into_iter().map(Into::into).collect(),
        );
        self
    }

    /// The template as `resources/templates/list` lists it.
    pub(crate) fn listed(&self) -> Value {
        let mut listed = json!({"uriTemplate": self.uri_template, "name": self.name});
        set_present(
            &mut listed,
            [
                ("mimeType", &self.mime_type),
                ("title", &self.title),
                ("description", &self.description),
            ],
        );
        listed
    }

    /// The variables of `uri` when it matches the template.
    pub(crate) fn matches(&self, uri: &str) -> Option<UriVariables> {
        match_template(&self.uri_template, uri)
    }

    /// Reads a URI that matched, with its variables.
    pub(crate) fn read(&self, uri: &str, variables: &UriVariables) -> Result<Resource, ToolError> {
        (self.read)(uri, variables)
    }
}

/// A client connected to the server, as long as its session lives.
struct Connected {
    session: Weak<Session>,
    peer: Peer<RoleServer>,
}

/// The fixed resources of a server, shared by its sessions, and the clients to tell when they
/// change. Get it with [`Server::resources`](crate::Server::resources) before serving; it stays
/// valid while the server runs.
#[derive(Clone, Default)]
pub struct Resources {
    list: Arc<RwLock<Vec<Resource>>>,
    clients: Arc<Mutex<Vec<Connected>>>,
    /// The open `subscriptions/listen` streams.
    listeners: Arc<Mutex<Vec<Arc<SubscriptionSink>>>>,
}

impl fmt::Debug for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Resources")
            .field("resources", &self.len())
            .finish_non_exhaustive()
    }
}

impl Resources {
    /// How many fixed resources the server has.
    pub fn len(&self) -> usize {
        self.list
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Whether the server has no fixed resources.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a resource, or replaces the one with the same URI, and tells every connected client
    /// that the list changed. Returns how many clients were told.
    pub async fn add(&self, resource: Resource) -> usize {
        {
            let mut list = self.list.write().unwrap_or_else(PoisonError::into_inner);
            match list.iter_mut().find(|r| r.uri == resource.uri) {
                Some(existing) => *existing = resource,
                None => list.push(resource),
            }
        }
        self.list_changed().await
    }

    /// Removes the resource with this URI, if there is one, and tells every connected client
    /// that the list changed. Returns whether it was there.
    pub async fn remove(&self, uri: &str) -> bool {
        let removed = {
            let mut list = self.list.write().unwrap_or_else(PoisonError::into_inner);
            let before = list.len();
            list.retain(|r| r.uri != uri);
            list.len() < before
        };
        if removed {
            self.list_changed().await;
        }
        removed
    }

    /// Tells the clients subscribed to `uri` that its content changed
    /// (`notifications/resources/updated`), for a resource whose content is read anew each
    /// time, such as one of a [`ResourceTemplate`]. Returns how many clients were told.
    pub async fn updated(&self, uri: &str) -> usize {
        let peers = self.peers(|session| session.is_subscribed(uri));
        let mut told = 0;
        for peer in peers {
            let params = ResourceUpdatedNotificationParam::new(uri);
            if peer.notify_resource_updated(params).await.is_ok() {
                told += 1;
            }
        }
        let listeners = self.listeners(|sink| {
            sink.accepted()
                .resource_subscriptions
                .as_ref()
                .is_some_and(|uris| uris.iter().any(|u| u == uri))
        });
        for sink in listeners {
            if sink.notify_resource_updated(uri).await.is_ok() {
                told += 1;
            }
        }
        told
    }

    async fn list_changed(&self) -> usize {
        let mut told = 0;
        for peer in self.peers(|_| true) {
            if peer.notify_resource_list_changed().await.is_ok() {
                told += 1;
            }
        }
        for sink in self.listeners(|sink| sink.accepted().resources_list_changed == Some(true)) {
            if sink.notify_resource_list_changed().await.is_ok() {
                told += 1;
            }
        }
        told
    }

    /// The open `subscriptions/listen` streams `keep` selects.
    fn listeners(&self, keep: impl Fn(&SubscriptionSink) -> bool) -> Vec<Arc<SubscriptionSink>> {
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .filter(|sink| keep(sink))
            .cloned()
            .collect()
    }

    /// Records an open `subscriptions/listen` stream, until [`Resources::stop_listening`].
    pub(crate) fn listen(&self, sink: &Arc<SubscriptionSink>) {
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Arc::clone(sink));
    }

    /// Forgets a `subscriptions/listen` stream that ended.
    pub(crate) fn stop_listening(&self, sink: &Arc<SubscriptionSink>) {
        self.listeners
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|s| !Arc::ptr_eq(s, sink));
    }

    /// The peers of the live sessions `keep` selects; forgets the sessions that ended.
    fn peers(&self, keep: impl Fn(&Session) -> bool) -> Vec<Peer<RoleServer>> {
        let mut clients = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        clients.retain(|c| c.session.strong_count() > 0);
        clients
            .iter()
            .filter(|c| c.session.upgrade().is_some_and(|s| keep(&s)))
            .map(|c| c.peer.clone())
            .collect()
    }

    /// Records a session whose client finished initializing.
    pub(crate) fn connect(&self, session: &Arc<Session>, peer: Peer<RoleServer>) {
        let mut clients = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        clients.retain(|c| c.session.strong_count() > 0);
        clients.push(Connected {
            session: Arc::downgrade(session),
            peer,
        });
    }

    /// Runs `f` over the resources as they are now.
    pub(crate) fn with<T>(&self, f: impl FnOnce(&[Resource]) -> T) -> T {
        f(&self.list.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Adds a resource before the server runs (no client to tell).
    pub(crate) fn push(&self, resource: Resource) {
        self.list
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .push(resource);
    }
}

/// Matches `uri` against a level-1 URI template: literal text must be equal, and each
/// `{name}` takes one or more characters up to the next `/` (or the literal text that follows
/// it, when that comes first).
fn match_template(template: &str, uri: &str) -> Option<UriVariables> {
    let mut variables = UriVariables::new();
    let mut rest_template = template;
    let mut rest_uri = uri;
    while !rest_template.is_empty() {
        match rest_template.find('{') {
            Some(0) => {
                let close = rest_template.find('}')?;
                let name = &rest_template[1..close];
                rest_template = &rest_template[close + 1..];
                let literal_end = rest_template.find('{').unwrap_or(rest_template.len());
                let next_literal = &rest_template[..literal_end];
                let limit = rest_uri.find('/').unwrap_or(rest_uri.len());
                let end = if next_literal.is_empty() {
                    limit
                } else {
                    rest_uri
                        .find(next_literal)
                        .filter(|&found| found <= limit)?
                };
                if end == 0 {
                    return None;
                }
                variables.insert(name.to_owned(), rest_uri[..end].to_owned());
                rest_uri = &rest_uri[end..];
            }
            found => {
                let end = found.unwrap_or(rest_template.len());
                rest_uri = rest_uri.strip_prefix(&rest_template[..end])?;
                rest_template = &rest_template[end..];
            }
        }
    }
    rest_uri.is_empty().then_some(variables)
}

/// Sets each field of `listed` whose value is present; leaves the absent ones out.
fn set_present(listed: &mut Value, fields: [(&str, &Option<String>); 3]) {
    for (key, value) in fields {
        if let Some(value) = value {
            listed[key] = json!(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_match_variables_between_literals() {
        let vars = match_template("test://template/{id}/data", "test://template/123/data").unwrap();
        assert_eq!(vars["id"], "123");
        assert!(match_template("test://template/{id}/data", "test://template/1/2/data").is_none());
        assert!(match_template("test://template/{id}/data", "test://template//data").is_none());
        assert!(match_template("test://template/{id}/data", "test://other/1/data").is_none());
        let vars = match_template("file:///{dir}/{name}.txt", "file:///a/b.txt").unwrap();
        assert_eq!((vars["dir"].as_str(), vars["name"].as_str()), ("a", "b"));
        assert!(match_template("x://{a}", "x://").is_none());
    }

    #[test]
    fn binary_resources_are_read_as_blobs() {
        let resource = Resource::blob("test://b", "b", "image/png", "AAAA");
        assert_eq!(
            resource.contents(),
            json!({"uri": "test://b", "mimeType": "image/png", "blob": "AAAA"})
        );
    }
}
