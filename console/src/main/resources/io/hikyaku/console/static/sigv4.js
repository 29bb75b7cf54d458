// AWS Signature Version 4 for the console's API calls, with the browser's WebCrypto
// (HMAC-SHA256 and SHA-256). The secret never leaves this tab: it is kept in sessionStorage
// and only used here to derive the signing key.
"use strict";

const SigV4 = (() => {
  const enc = new TextEncoder();

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), b => b.toString(16).padStart(2, "0")).join("");
  }

  async function sha256Hex(text) {
    return hex(await crypto.subtle.digest("SHA-256", enc.encode(text)));
  }

  async function hmac(key, text) {
    const raw = typeof key === "string" ? enc.encode(key) : key;
    const k = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(text)));
  }

  /** 20260101T120000Z */
  function amzDate(date) {
    return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  }

  /**
   * Signs a POST of `body` to `path` on `host` (what the browser sends as Host) with the given
   * headers (lower-case names; all are signed); `method` and `query` (already canonical: sorted,
   * encoded) for another request, such as the Scheduler's REST GETs. Returns the headers to send:
   * x-amz-date and authorization added.
   */
  async function sign({ accessKeyId, secretAccessKey, sessionToken, region, service, host, path, headers, body, date, method, query }) {
    const now = amzDate(date || new Date());
    const day = now.slice(0, 8);
    const all = Object.assign({}, headers, { host: host, "x-amz-date": now });
    if (sessionToken) {
      all["x-amz-security-token"] = sessionToken;
    }
    const names = Object.keys(all).map(n => n.toLowerCase()).sort();
    const lower = {};
    for (const [k, v] of Object.entries(all)) {
      lower[k.toLowerCase()] = String(v).trim().replace(/\s+/g, " ");
    }
    const canonicalHeaders = names.map(n => n + ":" + lower[n] + "\n").join("");
    const signedHeaders = names.join(";");
    const canonicalRequest = [method || "POST", path, query || "", canonicalHeaders, signedHeaders, await sha256Hex(body)].join("\n");
    const scope = day + "/" + region + "/" + service + "/aws4_request";
    const stringToSign = ["AWS4-HMAC-SHA256", now, scope, await sha256Hex(canonicalRequest)].join("\n");
    let key = await hmac("AWS4" + secretAccessKey, day);
    key = await hmac(key, region);
    key = await hmac(key, service);
    key = await hmac(key, "aws4_request");
    const signature = hex(await hmac(key, stringToSign));
    const out = Object.assign({}, all);
    delete out.host; // the browser sets Host itself
    out.authorization = "AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + scope
        + ", SignedHeaders=" + signedHeaders + ", Signature=" + signature;
    return out;
  }

  return { sign, amzDate };
})();
