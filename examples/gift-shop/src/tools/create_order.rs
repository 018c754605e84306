//! `create_order`: places an order for the signed-in customer and stores it.

use super::{Order, customer, plain_numbers, unknown_gift};
use crate::GiftShop;
use crate::catalog::CURRENCY;
use crate::date::{Date, timestamp_now};
use crate::store::NewOrder;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use toolpact::{Annotations, CallContext, Json, ToolError, TypedHandler, TypedTool};

/// The soonest delivery, in days from today (UTC): the shop packs one day and ships the next.
const EARLIEST_DELIVERY_DAYS: i64 = 2;

/// The latest delivery the shop schedules, in days from today.
const LATEST_DELIVERY_DAYS: i64 = 180;

/// What gift wrapping costs per item, in cents.
const GIFT_WRAP_CENTS: u32 = 350;

/// The arguments of `create_order`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(transform = plain_numbers)]
pub(crate) struct CreateOrderInput {
    /// Id of the gift the user picked, copied exactly from a suggest_gifts result (its `id`), e.g. "KITC-004".
    #[schemars(length(min = 1, max = 32))]
    gift_id: String,
    /// How many of the gift to order, 1 to 10, for example 1.
    #[schemars(range(min = 1, max = 10))]
    quantity: u32,
    /// Full name of the person who receives the gift, as the user gave it, e.g. "Ana Silva".
    #[schemars(length(min = 1, max = 100))]
    recipient_name: String,
    /// Postal address to deliver to, as the user gave it: street, postcode, city and country, e.g. "Rua das Flores 12, 1200-195 Lisboa, Portugal".
    #[schemars(length(min = 10, max = 300))]
    delivery_address: String,
    /// Day of delivery, ISO 8601 YYYY-MM-DD, e.g. "2026-12-20", from 2 to 180 days after today; leave out for the earliest day.
    #[schemars(extend("format" = "date"))]
    delivery_date: Option<String>,
    /// Message printed on a card with the gift, up to 200 characters, e.g. "Happy birthday, Ana!"; leave out for no card.
    #[schemars(length(max = 200))]
    gift_message: Option<String>,
    /// Whether to gift-wrap each item, for 3.50 euros (EUR) per item; not wrapped when left out.
    gift_wrap: Option<bool>,
}

pub(crate) struct CreateOrder {
    pub(crate) shop: GiftShop,
}

impl TypedTool for CreateOrder {
    type Input = CreateOrderInput;
    type Output = Json<Order>;
    const NAME: &'static str = "create_order";

    fn title() -> Option<String> {
        Some("Order a gift".to_owned())
    }

    fn description() -> Option<String> {
        Some(
            "Places an order for one gift for the signed-in customer and records it in their \
             order history; the shop delivers it to the recipient at the address and on the day \
             given, with free delivery. Orders cannot be cancelled with these tools. Call this \
             only after the user has picked a gift from the results of suggest_gifts and has \
             confirmed the quantity, recipient, address and day; the giftId must come from \
             suggest_gifts. Returns the order with its number and total in euros (EUR)."
                .to_owned(),
        )
    }

    fn annotations() -> Option<Annotations> {
        Some(Annotations {
            title: Some("Order a gift".to_owned()),
            read_only_hint: Some(false),
            destructive_hint: Some(true),
            idempotent_hint: Some(false),
            open_world_hint: Some(false),
            ..Annotations::default()
        })
    }

    fn meta() -> Option<Map<String, Value>> {
        let mut meta = Map::new();
        meta.insert(
            "openai/toolInvocation/invoking".to_owned(),
            json!("Placing your order…"),
        );
        meta.insert(
            "openai/toolInvocation/invoked".to_owned(),
            json!("Order placed"),
        );
        Some(meta)
    }
}

impl TypedHandler for CreateOrder {
    async fn call(
        &self,
        input: CreateOrderInput,
        ctx: CallContext,
    ) -> Result<Json<Order>, ToolError> {
        place(&self.shop, input, &ctx, Date::today()).map(Json)
    }
}

fn place(
    shop: &GiftShop,
    input: CreateOrderInput,
    ctx: &CallContext,
    today: Date,
) -> Result<Order, ToolError> {
    let user = customer(ctx, CreateOrder::NAME)?;
    let gift = shop
        .catalog()
        .get(&input.gift_id)
        .ok_or_else(|| unknown_gift(&input.gift_id))?;
    let recipient_name = required_text(
        &input.recipient_name,
        "recipientName",
        "the recipient's full name",
    )?;
    let delivery_address = required_text(
        &input.delivery_address,
        "deliveryAddress",
        "the full postal address",
    )?;
    let delivery_date = delivery_date(input.delivery_date.as_deref(), today)?;
    let gift_message = input
        .gift_message
        .map(|m| m.trim().to_owned())
        .filter(|m| !m.is_empty());
    let gift_wrap = input.gift_wrap.unwrap_or(false);
    let per_item = gift.price_cents + if gift_wrap { GIFT_WRAP_CENTS } else { 0 };
    let order = NewOrder {
        user_id: user.id.clone(),
        gift_id: gift.id.clone(),
        gift_title: gift.title.clone(),
        quantity: input.quantity,
        unit_price_cents: gift.price_cents,
        gift_wrap,
        // At most 10 items of at most 5,000 EUR: far inside a u32 of cents.
        total_cents: per_item.saturating_mul(input.quantity),
        currency: CURRENCY.to_owned(),
        recipient_name,
        delivery_address,
        delivery_date: delivery_date.to_string(),
        gift_message,
        status: "placed".to_owned(),
        created_at: timestamp_now(),
    };
    let orders = shop.orders();
    let stored = orders.insert(&order).map_err(|e| {
        ToolError::internal(format!("cannot store an order in {}: {e}", orders.label()))
    })?;
    Ok(Order::from(stored))
}

/// A text argument with its surrounding spaces removed; an error when nothing is left.
fn required_text(value: &str, name: &str, what: &str) -> Result<String, ToolError> {
    let trimmed = value.trim();
    if trimmed.is_empty() {
        return Err(ToolError::for_model(format!(
            "{name} is blank; ask the user for {what} and pass it as {name}."
        )));
    }
    Ok(trimmed.to_owned())
}

/// The delivery day asked for, or the earliest one; an error the model can act on when the
/// day is outside what the shop delivers.
fn delivery_date(asked: Option<&str>, today: Date) -> Result<Date, ToolError> {
    let earliest = today.plus_days(EARLIEST_DELIVERY_DAYS);
    let latest = today.plus_days(LATEST_DELIVERY_DAYS);
    let Some(text) = asked else {
        return Ok(earliest);
    };
    let Some(date) = Date::parse(text) else {
        return Err(ToolError::for_model(format!(
            "deliveryDate {text:?} is not a day written YYYY-MM-DD, such as \"{earliest}\"."
        )));
    };
    if date < earliest {
        let when = match today.days_until(date) {
            d if d < 0 => "in the past",
            _ => "too soon",
        };
        return Err(ToolError::for_model(format!(
            "deliveryDate {date} is {when}: the earliest delivery is {earliest} ({EARLIEST_DELIVERY_DAYS} days from today, {today}). Ask the user for a day from {earliest} to {latest}, or leave deliveryDate out for {earliest}."
        )));
    }
    if date > latest {
        return Err(ToolError::for_model(format!(
            "deliveryDate {date} is too far ahead: the shop schedules deliveries up to {latest} ({LATEST_DELIVERY_DAYS} days from today). Ask the user for a day from {earliest} to {latest}."
        )));
    }
    Ok(date)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn delivery_days_outside_the_window_say_which_days_work() {
        let today = Date::parse("2026-06-10").unwrap();
        assert_eq!(
            delivery_date(None, today).unwrap().to_string(),
            "2026-06-12"
        );
        assert_eq!(
            delivery_date(Some("2026-06-12"), today)
                .unwrap()
                .to_string(),
            "2026-06-12"
        );
        assert_eq!(
            delivery_date(Some("2026-12-07"), today)
                .unwrap()
                .to_string(),
            "2026-12-07"
        );
        let message = |asked: &str| match delivery_date(Some(asked), today) {
            Err(ToolError::ForModel(message)) => message,
            other => panic!("{asked}: {other:?}"),
        };
        assert_eq!(
            message("2026-06-01"),
            "deliveryDate 2026-06-01 is in the past: the earliest delivery is 2026-06-12 (2 days from today, 2026-06-10). Ask the user for a day from 2026-06-12 to 2026-12-07, or leave deliveryDate out for 2026-06-12."
        );
        assert!(message("2026-06-11").starts_with("deliveryDate 2026-06-11 is too soon:"));
        assert_eq!(
            message("2026-12-08"),
            "deliveryDate 2026-12-08 is too far ahead: the shop schedules deliveries up to 2026-12-07 (180 days from today). Ask the user for a day from 2026-06-12 to 2026-12-07."
        );
        assert!(message("2026-06-31").starts_with("deliveryDate \"2026-06-31\" is not a day"));
    }

    #[test]
    fn blank_text_is_refused_with_what_to_ask() {
        assert_eq!(
            required_text("  Ana  ", "recipientName", "a name").unwrap(),
            "Ana"
        );
        assert_eq!(
            required_text(" \t", "recipientName", "the recipient's full name"),
            Err(ToolError::for_model(
                "recipientName is blank; ask the user for the recipient's full name and pass it as recipientName."
            ))
        );
    }
}
