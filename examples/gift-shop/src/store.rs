//! Orders in SQLite: the schema and its migrations (versioned with `PRAGMA user_version`),
//! placing an order and reading a customer's orders back.

use crate::Error;
use rusqlite::{Connection, params};
use std::path::Path;
use std::time::Duration;

/// The migrations, in order; migration `i` brings the schema from version `i` to `i + 1`.
/// A released migration is never edited: a change is a new file at the end.
const MIGRATIONS: &[&str] = &[include_str!("../migrations/0001_orders.sql")];

/// The schema version this code reads and writes.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// How long a write waits for another process holding the database file.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// What is stored of an order when it is placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NewOrder {
    pub(crate) user_id: String,
    pub(crate) gift_id: String,
    pub(crate) gift_title: String,
    pub(crate) quantity: u32,
    pub(crate) unit_price_cents: u32,
    pub(crate) gift_wrap: bool,
    pub(crate) total_cents: u32,
    pub(crate) currency: String,
    pub(crate) recipient_name: String,
    pub(crate) delivery_address: String,
    pub(crate) delivery_date: String,
    pub(crate) gift_message: Option<String>,
    pub(crate) status: String,
    pub(crate) created_at: String,
}

/// A stored order: what was placed, with the number the database gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct StoredOrder {
    pub(crate) number: i64,
    pub(crate) order: NewOrder,
}

/// The order database.
#[derive(Debug)]
pub(crate) struct OrderStore {
    connection: Connection,
    /// The file, or `:memory:`, for messages.
    label: String,
}

impl OrderStore {
    /// Opens (or creates) the database file and brings its schema up to date.
    pub(crate) fn open(path: &Path) -> Result<OrderStore, Error> {
        let label = path.display().to_string();
        let connection = Connection::open(path).map_err(|error| Error::Database {
            path: label.clone(),
            action: "cannot open the database",
            error,
        })?;
        OrderStore::prepare(connection, label)
    }

    /// A database in memory, empty, lost when the store is dropped.
    pub(crate) fn in_memory() -> Result<OrderStore, Error> {
        let label = ":memory:".to_owned();
        let connection = Connection::open_in_memory().map_err(|error| Error::Database {
            path: label.clone(),
            action: "cannot create an in-memory database",
            error,
        })?;
        OrderStore::prepare(connection, label)
    }

    fn prepare(mut connection: Connection, label: String) -> Result<OrderStore, Error> {
        let failed = |action: &'static str| {
            let path = label.clone();
            move |error| Error::Database {
                path,
                action,
                error,
            }
        };
        connection
            .busy_timeout(BUSY_TIMEOUT)
            .map_err(failed("cannot set the busy timeout"))?;
        let found: i64 = connection
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .map_err(failed("cannot read the schema version"))?;
        if found > SCHEMA_VERSION {
            return Err(Error::NewerSchema {
                path: label,
                found,
                supported: SCHEMA_VERSION,
            });
        }
        let done = usize::try_from(found).unwrap_or(0);
        for (index, sql) in MIGRATIONS.iter().enumerate().skip(done) {
            // Each migration and its version bump commit together: a crash leaves the schema
            // at a version it really has.
            let transaction = connection
                .transaction()
                .map_err(failed("cannot start a migration"))?;
            transaction
                .execute_batch(sql)
                .map_err(failed("cannot migrate the schema"))?;
            transaction
                .pragma_update(None, "user_version", index as i64 + 1)
                .map_err(failed("cannot record the schema version"))?;
            transaction
                .commit()
                .map_err(failed("cannot commit a migration"))?;
        }
        Ok(OrderStore { connection, label })
    }

    /// The file, or `:memory:`.
    pub(crate) fn label(&self) -> &str {
        &self.label
    }

    /// Stores an order and returns its number.
    pub(crate) fn insert(&self, order: &NewOrder) -> rusqlite::Result<StoredOrder> {
        self.connection.execute(
            "INSERT INTO orders (user_id, gift_id, gift_title, quantity, unit_price_cents, \
             gift_wrap, total_cents, currency, recipient_name, delivery_address, delivery_date, \
             gift_message, status, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
            params![
                order.user_id,
                order.gift_id,
                order.gift_title,
                order.quantity,
                order.unit_price_cents,
                order.gift_wrap,
                order.total_cents,
                order.currency,
                order.recipient_name,
                order.delivery_address,
                order.delivery_date,
                order.gift_message,
                order.status,
                order.created_at,
            ],
        )?;
        Ok(StoredOrder {
            number: self.connection.last_insert_rowid(),
            order: order.clone(),
        })
    }

    /// A customer's orders, newest first, at most `limit`.
    pub(crate) fn list(&self, user_id: &str, limit: u32) -> rusqlite::Result<Vec<StoredOrder>> {
        let mut statement = self.connection.prepare_cached(
            "SELECT id, user_id, gift_id, gift_title, quantity, unit_price_cents, gift_wrap, \
             total_cents, currency, recipient_name, delivery_address, delivery_date, \
             gift_message, status, created_at \
             FROM orders WHERE user_id = ?1 ORDER BY id DESC LIMIT ?2",
        )?;
        let rows = statement.query_map(params![user_id, limit], |row| {
            Ok(StoredOrder {
                number: row.get(0)?,
                order: NewOrder {
                    user_id: row.get(1)?,
                    gift_id: row.get(2)?,
                    gift_title: row.get(3)?,
                    quantity: row.get(4)?,
                    unit_price_cents: row.get(5)?,
                    gift_wrap: row.get(6)?,
                    total_cents: row.get(7)?,
                    currency: row.get(8)?,
                    recipient_name: row.get(9)?,
                    delivery_address: row.get(10)?,
                    delivery_date: row.get(11)?,
                    gift_message: row.get(12)?,
                    status: row.get(13)?,
                    created_at: row.get(14)?,
                },
            })
        })?;
        rows.collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn a_new_database_is_at_the_latest_version() {
        let store = OrderStore::in_memory().unwrap();
        let version: i64 = store
            .connection
            .pragma_query_value(None, "user_version", |row| row.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        assert_eq!(store.label(), ":memory:");
    }

    #[test]
    fn orders_round_trip() {
        let store = OrderStore::in_memory().unwrap();
        let order = NewOrder {
            user_id: "u-1".to_owned(),
            gift_id: "KITC-004".to_owned(),
            gift_title: "Pour-over coffee set".to_owned(),
            quantity: 2,
            unit_price_cents: 4200,
            gift_wrap: true,
            total_cents: 9100,
            currency: "EUR".to_owned(),
            recipient_name: "Ana".to_owned(),
            delivery_address: "Rua das Flores 12, Lisboa".to_owned(),
            delivery_date: "2026-12-20".to_owned(),
            gift_message: None,
            status: "placed".to_owned(),
            created_at: "2026-12-01T10:00:00Z".to_owned(),
        };
        let stored = store.insert(&order).unwrap();
        assert_eq!(stored.number, 1);
        assert_eq!(store.list("u-1", 10).unwrap(), vec![stored]);
        assert!(store.list("u-2", 10).unwrap().is_empty());
    }
}
