/**
 * The CC Switch usage script: a JavaScript object literal with a `request` (CC Switch fills in
 * `{{baseUrl}}` and `{{apiKey}}`) and an `extractor` that maps the gateway's `GET /v1/usage`
 * answer to CC Switch's fields (`isValid`, `invalidMessage`, `planName`, `remaining`, `used`,
 * `total`, `unit`, `extra`). Remaining and total are left out for a key without a quota.
 * With a subscription (the account's plan windows) or a member budget (the spend of all keys of
 * the key's owner), the plan is named, the tightest of the quota and those windows gives
 * `remaining` and `total`, and `extra` lists each window as used/limit.
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
    var parts = [];
    function tighten(label, windows) {
      for (var i = 0; i < windows.length; i++) {
        var w = windows[i];
        parts.push(label + " " + w.name + " $" + w.used.toFixed(2) + "/$" + w.limit.toFixed(2));
        if (result.remaining === undefined || w.remaining < result.remaining) {
          result.remaining = w.remaining;
          result.total = w.limit;
        }
      }
    }
    if (response.subscription) {
      result.planName = response.subscription.plan;
      if (response.subscription.state !== "Active") parts.push("plan " + response.subscription.state);
      tighten("plan", response.subscription.windows);
    }
    if (response.member) tighten("member", response.member.windows);
    if (parts.length > 0) result.extra += "; " + parts.join(", ");
    return result;
  }
})
`;
