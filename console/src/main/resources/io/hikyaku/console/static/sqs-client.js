// The console's only way to the server: the public SQS JSON API (and Hikyaku.PeekMessages) on the
// same origin. Same-origin JSON with a custom X-Amz-Target header cannot be sent by another site
// without a CORS preflight, which the server never approves: no CSRF by construction.
"use strict";

const Sqs = (() => {
  const KEY = "hikyaku.console.credentials";

  /** Credentials of this tab, or null (then requests go unsigned, as the default account). */
  function credentials() {
    const raw = sessionStorage.getItem(KEY);
    return raw ? JSON.parse(raw) : null;
  }

  function signIn(accessKeyId, secretAccessKey, region) {
    sessionStorage.setItem(KEY, JSON.stringify({ accessKeyId, secretAccessKey, region: region || "us-east-1" }));
  }

  function signOut() {
    sessionStorage.removeItem(KEY);
  }

  class ApiError extends Error {
    constructor(status, type, message) {
      super(message || type);
      this.status = status;
      this.type = type;
    }
    /** The server wants (other) credentials. */
    get needsSignIn() {
      // Query names, then the JSON protocol's names of the same errors (what __type carries).
      return this.status === 401 || ["MissingAuthenticationToken", "InvalidClientTokenId", "SignatureDoesNotMatch",
        "IncompleteSignature", "UnrecognizedClientException", "ExpiredToken", "MissingAuthenticationTokenException",
        "InvalidSecurity", "InvalidSignatureException", "IncompleteSignatureException", "ExpiredTokenException",
        "InvalidClientTokenIdException"].includes(this.type);
    }
  }

  /**
   * Calls `target` (e.g. "AmazonSQS.ListQueues") with `input`; resolves to the output object.
   * `service` is the SigV4 signing name ("sqs", or "monitoring" for CloudWatch); `creds` overrides
   * the tab's credentials (to check new ones before keeping them).
   */
  async function call(target, input, service, creds) {
    const body = JSON.stringify(input || {});
    let headers = { "content-type": "application/x-amz-json-1.0", "x-amz-target": target };
    creds = creds || credentials();
    if (creds) {
      headers = await SigV4.sign({
        accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, region: creds.region,
        service: service || "sqs", host: location.host, path: "/", headers, body
      });
    }
    const response = await fetch("/", { method: "POST", headers, body, credentials: "omit", cache: "no-store" });
    const text = await response.text();
    let json = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch (e) {
      throw new ApiError(response.status, "BadResponse", "unreadable answer (HTTP " + response.status + ")");
    }
    if (!response.ok) {
      const type = String(json.__type || "Error").replace(/^.*#/, "");
      throw new ApiError(response.status, type, json.message || json.Message || type);
    }
    return json;
  }

  const sqs = (action, input) => call("AmazonSQS." + action, input);
  const peek = input => call("Hikyaku.PeekMessages", input);
  /** The CloudWatch API over AWS JSON 1.0, signed for the "monitoring" service like the AWS CLI does. */
  const cloudwatch = (action, input) => call("GraniteServiceVersion20100801." + action, input, "monitoring");

  /**
   * The caller's account id from STS GetCallerIdentity (Query protocol, signed for "sts"; it needs no
   * permission), or null without credentials. Lets a principal that may not call GetQueueUrl still
   * build its own account's queue URL from a queue name.
   */
  async function callerAccount() {
    const creds = credentials();
    if (!creds) return null;
    const body = "Action=GetCallerIdentity&Version=2011-06-15";
    const headers = await SigV4.sign({
      accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, region: creds.region,
      service: "sts", host: location.host, path: "/",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" }, body
    });
    const response = await fetch("/", { method: "POST", headers, body, credentials: "omit", cache: "no-store" });
    const xml = new DOMParser().parseFromString(await response.text(), "application/xml");
    const text = tag => { const n = xml.getElementsByTagName(tag)[0]; return n ? n.textContent : null; };
    if (!response.ok) throw new ApiError(response.status, text("Code") || "Error", text("Message") || "GetCallerIdentity failed");
    return text("Account");
  }

  /**
   * Checks credentials with a signed ListQueues before keeping them: a wrong key id or secret is
   * refused by the server's SigV4 check (the AWS error is thrown); an authorization refusal
   * (AccessDenied) still proves the key and secret are right, so it is not a sign-in failure.
   */
  async function verify(accessKeyId, secretAccessKey, region) {
    const creds = { accessKeyId, secretAccessKey, region: region || "us-east-1" };
    try {
      await call("AmazonSQS.ListQueues", { MaxResults: 1 }, "sqs", creds);
    } catch (e) {
      if (e.needsSignIn || e.status >= 500 || e.status === 0) throw e;
    }
  }

  return { call, sqs, peek, cloudwatch, callerAccount, verify, credentials, signIn, signOut, ApiError };
})();
