"""What an HTTP subscriber does with Hikyaku's SNS messages, in Python.

verify ENDPOINT FILE...   each FILE holds one POSTed JSON body: fetch its SigningCertURL (which must be on
                          ENDPOINT, as a subscriber checks the certificate's origin), build the string to sign as
                          the SNS documentation gives it, and verify SignatureVersion 1 (SHA1) or 2 (SHA256).
subscribe ENDPOINT TOPIC URL   boto3: subscribe URL (protocol http) to TOPIC and print the answer's SubscriptionArn.
"""
import base64
import json
import sys
import urllib.request

NOTIFICATION_KEYS = ["Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"]
CONFIRMATION_KEYS = ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"]


def string_to_sign(message):
    keys = NOTIFICATION_KEYS if message["Type"] == "Notification" else CONFIRMATION_KEYS
    out = ""
    for key in keys:
        if key in message:
            out += key + "\n" + message[key] + "\n"
    return out.encode("utf-8")


def verify_with_cryptography(pem, signature, data, version):
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding
    cert = x509.load_pem_x509_certificate(pem)
    digest = hashes.SHA256() if version == "2" else hashes.SHA1()
    cert.public_key().verify(signature, data, padding.PKCS1v15(), digest)  # raises when it does not verify


def verify_with_openssl(pem, signature, data, version):
    import os
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        paths = {name: os.path.join(d, name) for name in ("cert.pem", "key.pem", "sig", "data")}
        for name, content in (("cert.pem", pem), ("sig", signature), ("data", data)):
            with open(paths[name], "wb") as f:
                f.write(content)
        key = subprocess.run(["openssl", "x509", "-in", paths["cert.pem"], "-pubkey", "-noout"],
                             check=True, capture_output=True).stdout
        with open(paths["key.pem"], "wb") as f:
            f.write(key)
        subprocess.run(["openssl", "dgst", "-sha256" if version == "2" else "-sha1", "-verify", paths["key.pem"],
                        "-signature", paths["sig"], paths["data"]], check=True, capture_output=True)


def verify(endpoint, files):
    try:
        import cryptography  # noqa: F401
        check, how = verify_with_cryptography, "cryptography"
    except ImportError:
        check, how = verify_with_openssl, "openssl"
    versions = set()
    for name in files:
        with open(name, encoding="utf-8") as f:
            message = json.load(f)
        url = message["SigningCertURL"]
        if not url.startswith(endpoint + "/_aws/sns/SimpleNotificationService-") or not url.endswith(".pem"):
            raise SystemExit("certificate not from the server: " + url)
        pem = urllib.request.urlopen(url, timeout=10).read()
        check(pem, base64.b64decode(message["Signature"]), string_to_sign(message), message["SignatureVersion"])
        tampered = dict(message, Message=message["Message"] + "!")
        try:
            check(pem, base64.b64decode(message["Signature"]), string_to_sign(tampered), message["SignatureVersion"])
        except Exception:
            pass
        else:
            raise SystemExit("a tampered message verified")
        versions.add(message["SignatureVersion"])
    print("ok: %d verified with %s, versions %s" % (len(files), how, ",".join(sorted(versions))))


def subscribe(endpoint, topic, url):
    import boto3
    sns = boto3.client("sns", endpoint_url=endpoint, region_name="us-east-1",
                       aws_access_key_id="000000000000", aws_secret_access_key="test")
    answer = sns.subscribe(TopicArn=topic, Protocol="http", Endpoint=url)
    print("ok: boto3 " + boto3.__version__ + " " + answer["SubscriptionArn"])


if __name__ == "__main__":
    if sys.argv[1] == "verify":
        verify(sys.argv[2], sys.argv[3:])
    else:
        subscribe(sys.argv[2], sys.argv[3], sys.argv[4])
