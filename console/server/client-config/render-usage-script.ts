/**
 * The CC Switch usage script: a JavaScript object literal with a `request` (CC Switch fills in
 * `{{baseUrl}}` and `{{apiKey}}`) and an `extractor` that maps the gateway's `GET /v1/usage`
 * answer to CC Switch's fields (`isValid`, `invalidMessage`, `planName`, `remaining`, `used`,
 * `total`, `unit`, `extra`). Remaining and total are left out for a key without a quota.
 */
export const TOLLGATE_USAGE_SCRIPT = `({
  request: {
    url: "{{baseUrl}}/v1/usage",
    method: "GET",
    headers: { "Authorization": "Bearer {{apiKey}}" }
  },
  extractor: function (response) {
    if (!response || response.object !== "usage") {
      var error = response && response.error;
      var message = error && (typeof error === "string" ? error : error.message);
      return { isValid: false, invalidMessage: message || "Usage query failed" };
    }
    var result = {
      isValid: true,
      planName: response.key.group,
      used: response.quota.used,
      unit: "USD",
      extra: "today $" + response.today.used.toFixed(2) + ", total $" + response.total.used.toFixed(2)
    };
    if (response.quota.remaining !== null) result.remaining = response.quota.remaining;
    if (response.quota.limit !== null) result.total = response.quota.limit;
    return result;
  }
})
`;
