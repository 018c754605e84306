//! `get_gift_details`: everything the shop knows about one gift that `suggest_gifts` returned.

use super::plain_numbers;
use super::unknown_gift;
use crate::GiftShop;
use crate::catalog::{AgeGroup, CURRENCY, Gift, Occasion, Relationship, euros};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toolpact::{Annotations, CallContext, Json, ToolError, TypedHandler, TypedTool};

/// The arguments of `get_gift_details`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct GetGiftDetailsInput {
    /// Id of the gift, copied exactly from a suggest_gifts result (its `id`), e.g. "KITC-004".
    #[schemars(length(min = 1, max = 32))]
    gift_id: String,
}

/// One gift in full.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
#[schemars(transform = plain_numbers)]
pub(crate) struct GiftDetails {
    /// The gift's id: the giftId for create_order.
    id: String,
    title: String,
    description: String,
    /// Price in `currency`.
    price: f64,
    /// ISO 4217 code, always "EUR".
    currency: String,
    /// Interest tags the gift matches.
    tags: Vec<String>,
    /// Occasions the gift suits.
    occasions: Vec<Occasion>,
    /// Whom the gift suits.
    recipients: Vec<Relationship>,
    /// Ages the gift suits: baby (under 3), kid (3 to 12), teen (13 to 17), adult.
    age_groups: Vec<AgeGroup>,
    /// The gift's page in the shop.
    #[schemars(extend("format" = "uri"))]
    link: String,
    /// A photo of the gift.
    #[schemars(extend("format" = "uri"))]
    image: String,
}

impl From<&Gift> for GiftDetails {
    fn from(gift: &Gift) -> GiftDetails {
        GiftDetails {
            id: gift.id.clone(),
            title: gift.title.clone(),
            description: gift.description.clone(),
            price: euros(gift.price_cents),
            currency: CURRENCY.to_owned(),
            tags: gift.tags.clone(),
            occasions: gift.occasions.clone(),
            recipients: gift.recipients.clone(),
            age_groups: gift.age_groups.clone(),
            link: gift.link.clone(),
            image: gift.image.clone(),
        }
    }
}

pub(crate) struct GetGiftDetails {
    pub(crate) shop: GiftShop,
}

impl TypedTool for GetGiftDetails {
    type Input = GetGiftDetailsInput;
    type Output = Json<GiftDetails>;
    const NAME: &'static str = "get_gift_details";

    fn title() -> Option<String> {
        Some("Gift details".to_owned())
    }

    fn description() -> Option<String> {
        Some(
            "Returns the full details of one gift in the shop: its description, price in euros \
             (EUR), the interests and occasions it suits, who it suits by relationship and age, \
             and its page in the shop. Call this when the user asks about a gift that \
             suggest_gifts returned; the giftId must come from a suggest_gifts result."
                .to_owned(),
        )
    }

    fn annotations() -> Option<Annotations> {
        Some(Annotations {
            title: Some("Gift details".to_owned()),
            read_only_hint: Some(true),
            open_world_hint: Some(false),
            ..Annotations::default()
        })
    }
}

impl TypedHandler for GetGiftDetails {
    async fn call(
        &self,
        input: GetGiftDetailsInput,
        _ctx: CallContext,
    ) -> Result<Json<GiftDetails>, ToolError> {
        let gift = self
            .shop
            .catalog()
            .get(&input.gift_id)
            .ok_or_else(|| unknown_gift(&input.gift_id))?;
        Ok(Json(GiftDetails::from(gift)))
    }
}
