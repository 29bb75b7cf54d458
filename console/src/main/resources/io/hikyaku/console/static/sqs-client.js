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
      return this.status === 401 || ["MissingAuthenticationToken", "InvalidClientTokenId", "SignatureDoesNotMatch",
        "IncompleteSignature", "UnrecognizedClientException", "ExpiredToken", "MissingAuthenticationTokenException",
        "InvalidSecurity"].includes(this.type);
    }
  }

  /** Calls `target` (e.g. "AmazonSQS.ListQueues") with `input`; resolves to the output object. */
  async function call(target, input) {
    const body = JSON.stringify(input || {});
    let headers = { "content-type": "application/x-amz-json-1.0", "x-amz-target": target };
    const creds = credentials();
    if (creds) {
      headers = await SigV4.sign({
        accessKeyId: creds.accessKeyId, secretAccessKey: creds.secretAccessKey, region: creds.region,
        service: "sqs", host: location.host, path: "/", headers, body
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

  return { call, sqs, peek, credentials, signIn, signOut, ApiError };
})();
