//! The gift shop: a working tool server built with toolpact.
//!
//! Four typed tools over a catalog of gifts shipped as data (`data/gifts.json`), with orders
//! kept in SQLite:
//!
//! - `suggest_gifts` ranks the catalog for one person (interests, occasion, relationship, age,
//!   budget) and returns gift cards as structured output, rendered by the widget at
//!   [`WIDGET_URI`] in ChatGPT;
//! - `get_gift_details` describes one suggested gift;
//! - `create_order` places an order for the signed-in customer (destructive);
//! - `list_orders` lists that customer's orders.
//!
//! The customer is never an argument: the server attaches a [`User`] to each call through
//! [`toolpact::DispatchOptions::data`], and the order tools read it from the call context.
//!
//! ```
//! use std::sync::Arc;
//! use gift_shop::{GiftShop, User};
//! use toolpact::{DispatchOptions, Outcome, dispatch_blocking, parse_call};
//!
//! let shop = GiftShop::in_memory()?;
//! let registry = shop.registry();
//! let options = DispatchOptions {
//!     data: Some(Arc::new(User::new("customer-42"))),
//!     ..DispatchOptions::default()
//! };
//! let call = parse_call(
//!     &serde_json::json!({"name": "suggest_gifts", "arguments": {
//!         "relationship": "friend", "interests": ["coffee"], "maxBudget": 50
//!     }}),
//!     None,
//!     "",
//! )?;
//! let dispatched = dispatch_blocking(&registry, &call, &options);
//! assert_eq!(dispatched.outcome, Outcome::Ok);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs)]

mod catalog;
mod date;
mod store;
mod tools;

use catalog::GiftCatalog;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use store::OrderStore;
use toolpact::{Registry, RegistryError};

/// The URI of the widget that renders `suggest_gifts` results, as `_meta["openai/outputTemplate"]`
/// names it. A server registers [`widget_html`] as a resource under this URI.
pub const WIDGET_URI: &str = "ui://widget/gifts.html";

/// The MIME type of the widget resource: HTML that ChatGPT renders in its sandbox.
pub const WIDGET_MIME: &str = "text/html+skybridge";

/// The widget: a self-contained HTML page that renders the gift cards of
/// `window.openai.toolOutput` (the ChatGPT Apps SDK convention), with no external scripts.
pub fn widget_html() -> &'static str {
    include_str!("../widget/gifts.html")
}

/// The signed-in customer, attached by the server to every call; the model never provides it.
///
/// ```
/// use std::sync::Arc;
/// let options = toolpact::DispatchOptions {
///     data: Some(Arc::new(gift_shop::User::new("customer-42"))),
///     ..toolpact::DispatchOptions::default()
/// };
/// # let _ = options;
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct User {
    /// The customer's id as the server's authentication knows it; orders are stored and
    /// listed under it.
    pub id: String,
}

impl User {
    /// The customer with this id.
    pub fn new(id: impl Into<String>) -> User {
        User { id: id.into() }
    }
}

/// Why the gift shop cannot open.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The gift catalog is not valid JSON or breaks a rule of the catalog.
    #[error("the gift catalog {file} is malformed: {problem}")]
    Catalog {
        /// The catalog file.
        file: String,
        /// What is wrong, with the line and column or the gift it concerns.
        problem: String,
    },
    /// The order database failed.
    #[error("the order database {path}: {action}: {error}")]
    Database {
        /// The database file, or `:memory:`.
        path: String,
        /// What the shop was doing.
        action: &'static str,
        /// The SQLite error.
        error: rusqlite::Error,
    },
    /// The order database was written by a newer version of the shop.
    #[error(
        "the order database {path} has schema version {found}, newer than the {supported} this gift shop knows; open it with a newer gift shop, or use another file"
    )]
    NewerSchema {
        /// The database file.
        path: String,
        /// The version found in the file (`PRAGMA user_version`).
        found: i64,
        /// The latest version this code knows.
        supported: i64,
    },
    /// A tool definition does not register (its schema does not compile, say).
    #[error("the gift shop's tools cannot be registered: {0}")]
    Registry(#[from] RegistryError),
}

/// The gift shop: the catalog and the order database. Cheap to clone; clones share both.
#[derive(Debug, Clone)]
pub struct GiftShop {
    inner: Arc<Shop>,
}

#[derive(Debug)]
struct Shop {
    catalog: GiftCatalog,
    // rusqlite's `Connection` is `Send` but not `Sync`; handlers may run on any thread.
    orders: Mutex<OrderStore>,
}

impl GiftShop {
    /// Opens the shop with its orders in the SQLite file at `path`, creating the file and its
    /// schema when missing and migrating an older schema.
    pub fn open(path: &Path) -> Result<GiftShop, Error> {
        GiftShop::with_store(OrderStore::open(path)?)
    }

    /// Opens the shop with its orders in memory, lost when the last clone is dropped.
    pub fn in_memory() -> Result<GiftShop, Error> {
        GiftShop::with_store(OrderStore::in_memory()?)
    }

    fn with_store(orders: OrderStore) -> Result<GiftShop, Error> {
        let shop = GiftShop {
            inner: Arc::new(Shop {
                catalog: GiftCatalog::bundled()?,
                orders: Mutex::new(orders),
            }),
        };
        // Registration is deterministic: if it works once it always does, so checking here
        // lets `registry` stay infallible.
        shop.try_registry()?;
        Ok(shop)
    }

    /// The shop's tools, each with its handler, ready to dispatch or export.
    ///
    /// [`GiftShop::open`] already registered the same tools once, so this cannot fail; should
    /// it ever, the error is logged and the tools registered so far are returned.
    pub fn registry(&self) -> Registry {
        let mut registry = Registry::new();
        if let Err(error) = tools::register(self, &mut registry) {
            tracing::error!(%error, "gift shop tool left out of the registry");
        }
        registry
    }

    /// The shop's tools, or why one of them does not register.
    pub fn try_registry(&self) -> Result<Registry, Error> {
        let mut registry = Registry::new();
        tools::register(self, &mut registry)?;
        Ok(registry)
    }

    /// How many gifts the catalog holds.
    pub fn gift_count(&self) -> usize {
        self.inner.catalog.gifts().len()
    }

    fn catalog(&self) -> &GiftCatalog {
        &self.inner.catalog
    }

    fn orders(&self) -> MutexGuard<'_, OrderStore> {
        // A handler that panicked while holding the lock cannot have left the database half
        // written: every write is one SQLite statement, atomic on its own.
        self.inner
            .orders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
