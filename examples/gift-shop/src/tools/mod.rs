//! The shop's tools, one file each, and what they share: the customer from the call context,
//! the message for an unknown gift id, and the order as the order tools return it.

mod create_order;
mod get_gift_details;
mod list_orders;
mod suggest_gifts;

use crate::catalog::euros;
use crate::store::StoredOrder;
use crate::{GiftShop, User};
use schemars::transform::{RecursiveTransform, Transform};
use schemars::{JsonSchema, Schema};
use serde::Serialize;
use serde_json::Value;
use toolpact::{CallContext, Registry, RegistryError, ToolError};

/// Registers every tool of the shop with its handler.
pub(crate) fn register(shop: &GiftShop, registry: &mut Registry) -> Result<(), RegistryError> {
    registry.register_handler(suggest_gifts::SuggestGifts { shop: shop.clone() })?;
    registry.register_handler(get_gift_details::GetGiftDetails { shop: shop.clone() })?;
    registry.register_handler(create_order::CreateOrder { shop: shop.clone() })?;
    registry.register_handler(list_orders::ListOrders { shop: shop.clone() })?;
    Ok(())
}

/// The signed-in customer of a call, or the error the model reads when there is none: the
/// server did not authenticate anyone, and no argument could fix that.
fn customer<'a>(ctx: &'a CallContext, tool: &str) -> Result<&'a User, ToolError> {
    match ctx.data::<User>() {
        Some(user) if !user.id.trim().is_empty() => Ok(user),
        _ => Err(ToolError::for_model(format!(
            "{tool} needs a signed-in customer, and nobody is signed in to the gift shop in this \
             conversation. Ask the user to sign in to the gift shop, then try again."
        ))),
    }
}

/// The message for a gift id the catalog does not have: ids are never guessed, they come
/// from `suggest_gifts`.
fn unknown_gift(id: &str) -> ToolError {
    ToolError::for_model(format!(
        "There is no gift with id {id:?} in the shop. Gift ids come only from suggest_gifts \
         results: call suggest_gifts first, then pass the `id` of the gift the user picked, \
         exactly as it was returned (for example \"KITC-004\")."
    ))
}

/// The formats schemars gives Rust number types. JSON Schema does not define them, no provider
/// reads them, and the Gemini export would copy them into the description; the ranges
/// (`minimum`, `maximum`) already say what matters.
const RUST_NUMBER_FORMATS: &[&str] = &[
    "int8", "int16", "int32", "int64", "int128", "uint", "uint8", "uint16", "uint32", "uint64",
    "uint128", "float", "double",
];

/// Removes [`RUST_NUMBER_FORMATS`] from a schema and its subschemas; used as
/// `#[schemars(transform = plain_numbers)]` on the tools' input and output types.
pub(crate) fn plain_numbers(schema: &mut Schema) {
    RecursiveTransform(|s: &mut Schema| {
        // `Option<u8>` is `["integer", "null"]` here; toolpact drops the `null` later.
        let is_number = |t: &Value| matches!(t.as_str(), Some("integer" | "number"));
        let numeric = match s.get("type") {
            Some(Value::Array(types)) => types.iter().any(is_number),
            Some(t) => is_number(t),
            None => false,
        };
        let rust_format = s
            .get("format")
            .and_then(Value::as_str)
            .is_some_and(|f| RUST_NUMBER_FORMATS.contains(&f));
        if numeric && rust_format {
            s.remove("format");
        }
    })
    .transform(schema);
}

/// An order as the order tools return it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(inline, transform = plain_numbers)]
pub(crate) struct Order {
    /// The shop's order number, such as "ORD-000042".
    order_id: String,
    /// The gift ordered.
    gift_id: String,
    /// The gift's name when it was ordered.
    title: String,
    quantity: u32,
    /// Price of one gift, in `currency`.
    unit_price: f64,
    /// Whether each item is gift-wrapped.
    gift_wrap: bool,
    /// What the order costs in all, in `currency`: gifts plus wrapping; delivery is free.
    total: f64,
    /// ISO 4217 code, always "EUR".
    currency: String,
    recipient_name: String,
    delivery_address: String,
    /// Day of delivery, YYYY-MM-DD.
    #[schemars(extend("format" = "date"))]
    delivery_date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    gift_message: Option<String>,
    /// "placed": the shop has the order and will deliver it on `deliveryDate`.
    status: String,
    /// When the order was placed, RFC 3339 in UTC.
    #[schemars(extend("format" = "date-time"))]
    created_at: String,
}

impl From<StoredOrder> for Order {
    fn from(stored: StoredOrder) -> Order {
        let order = stored.order;
        Order {
            order_id: format!("ORD-{:06}", stored.number),
            gift_id: order.gift_id,
            title: order.gift_title,
            quantity: order.quantity,
            unit_price: euros(order.unit_price_cents),
            gift_wrap: order.gift_wrap,
            total: euros(order.total_cents),
            currency: order.currency,
            recipient_name: order.recipient_name,
            delivery_address: order.delivery_address,
            delivery_date: order.delivery_date,
            gift_message: order.gift_message,
            status: order.status,
            created_at: order.created_at,
        }
    }
}
