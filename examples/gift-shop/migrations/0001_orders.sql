-- Orders, one row each. The gift's title and price are copied in when the order is placed,
-- so an order reads the same after the catalog changes.
CREATE TABLE orders (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id          TEXT    NOT NULL,
    gift_id          TEXT    NOT NULL,
    gift_title       TEXT    NOT NULL,
    quantity         INTEGER NOT NULL CHECK (quantity > 0),
    unit_price_cents INTEGER NOT NULL CHECK (unit_price_cents > 0),
    gift_wrap        INTEGER NOT NULL CHECK (gift_wrap IN (0, 1)),
    total_cents      INTEGER NOT NULL CHECK (total_cents > 0),
    currency         TEXT    NOT NULL,
    recipient_name   TEXT    NOT NULL,
    delivery_address TEXT    NOT NULL,
    delivery_date    TEXT    NOT NULL,
    gift_message     TEXT,
    status           TEXT    NOT NULL,
    created_at       TEXT    NOT NULL
);

CREATE INDEX orders_by_user ON orders (user_id, id);
