#!/usr/bin/env python3
"""The KMS subset with boto3's kms client against a Hikyaku endpoint (auth none).

Usage: kms_check.py ENDPOINT. Prints "ok: <n> checks" and exits 0, or fails with the first difference.
"""
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

endpoint = sys.argv[1]
kms = boto3.client("kms", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="test",
                   aws_secret_access_key="test", config=Config(retries={"max_attempts": 1}))
checks = 0


def expect_error(code, call, **kwargs):
    global checks
    try:
        call(**kwargs)
    except ClientError as e:
        got = e.response["Error"]["Code"]
        assert got == code, f"{call.__name__}: expected {code}, got {got}: {e.response['Error'].get('Message')}"
        checks += 1
        return e.response["Error"].get("Message")
    raise AssertionError(f"{call.__name__}: expected {code}, got success")


key = kms.create_key(Description="boto3")["KeyMetadata"]
assert key["KeySpec"] == "SYMMETRIC_DEFAULT" and key["KeyState"] == "Enabled", key
checks += 1
kms.create_alias(AliasName="alias/boto3", TargetKeyId=key["KeyId"])
assert kms.describe_key(KeyId="alias/boto3")["KeyMetadata"]["Arn"] == key["Arn"]
checks += 1
assert any(a["AliasName"] == "alias/boto3" for a in kms.list_aliases()["Aliases"])
assert any(k["KeyId"] == key["KeyId"] for k in kms.list_keys()["Keys"])
checks += 1
context = {"purpose": "check"}
blob = kms.encrypt(KeyId="alias/boto3", Plaintext=b"marker", EncryptionContext=context)["CiphertextBlob"]
assert kms.decrypt(CiphertextBlob=blob, EncryptionContext=context)["Plaintext"] == b"marker"
checks += 1
expect_error("InvalidCiphertextException", kms.decrypt, CiphertextBlob=blob, EncryptionContext={"purpose": "other"})
data_key = kms.generate_data_key(KeyId=key["KeyId"], KeySpec="AES_256")
assert len(data_key["Plaintext"]) == 32
assert kms.decrypt(CiphertextBlob=data_key["CiphertextBlob"])["Plaintext"] == data_key["Plaintext"]
checks += 1
again = kms.re_encrypt(CiphertextBlob=blob, SourceEncryptionContext=context, DestinationKeyId="alias/boto3")
assert kms.decrypt(CiphertextBlob=again["CiphertextBlob"])["Plaintext"] == b"marker"
checks += 1
kms.tag_resource(KeyId=key["KeyId"], Tags=[{"TagKey": "team", "TagValue": "a"}])
assert kms.list_resource_tags(KeyId=key["KeyId"])["Tags"] == [{"TagKey": "team", "TagValue": "a"}]
checks += 1
assert '"kms:*"' in kms.get_key_policy(KeyId=key["KeyId"], PolicyName="default")["Policy"]
checks += 1
kms.enable_key_rotation(KeyId=key["KeyId"], RotationPeriodInDays=180)
status = kms.get_key_rotation_status(KeyId=key["KeyId"])
assert status["KeyRotationEnabled"] and status["RotationPeriodInDays"] == 180 and "NextRotationDate" in status, status
expect_error("ValidationException", kms.enable_key_rotation, KeyId=key["KeyId"], RotationPeriodInDays=2561)
kms.rotate_key_on_demand(KeyId=key["KeyId"])
rotations = kms.list_key_rotations(KeyId=key["KeyId"])["Rotations"]
assert [r["RotationType"] for r in rotations] == ["ON_DEMAND"], rotations
assert kms.decrypt(CiphertextBlob=blob, EncryptionContext=context)["Plaintext"] == b"marker"
checks += 1
grantee = "arn:aws:iam::000000000000:user/reader"
grant = kms.create_grant(KeyId=key["KeyId"], GranteePrincipal=grantee, RetiringPrincipal=grantee,
                         Operations=["Decrypt"], Constraints={"EncryptionContextSubset": context}, Name="reader")
grants = kms.list_grants(KeyId=key["KeyId"])["Grants"]
assert [g["GrantId"] for g in grants] == [grant["GrantId"]], grants
assert grants[0]["Constraints"]["EncryptionContextSubset"] == context and grants[0]["Operations"] == ["Decrypt"], grants
assert [g["GrantId"] for g in kms.list_retirable_grants(RetiringPrincipal=grantee)["Grants"]] == [grant["GrantId"]]
assert kms.decrypt(CiphertextBlob=blob, EncryptionContext=context, GrantTokens=[grant["GrantToken"]])["Plaintext"] == b"marker"
expect_error("InvalidGrantTokenException", kms.decrypt, CiphertextBlob=blob, EncryptionContext=context, GrantTokens=["bogus"])
kms.retire_grant(GrantToken=grant["GrantToken"])
assert kms.list_grants(KeyId=key["KeyId"])["Grants"] == []
expect_error("NotFoundException", kms.revoke_grant, KeyId=key["KeyId"], GrantId=grant["GrantId"])
checks += 1
kms.disable_key(KeyId=key["KeyId"])
message = expect_error("DisabledException", kms.encrypt, KeyId=key["KeyId"], Plaintext=b"x")
assert message == key["Arn"] + " is disabled.", message
kms.enable_key(KeyId=key["KeyId"])
kms.schedule_key_deletion(KeyId=key["KeyId"], PendingWindowInDays=7)
expect_error("KMSInvalidStateException", kms.decrypt, CiphertextBlob=blob, EncryptionContext=context)
expect_error("ValidationException", kms.create_key, KeyUsage="SIGN_VERIFY")
expect_error("NotFoundException", kms.describe_key, KeyId="alias/missing")
expect_error("AlreadyExistsException", kms.create_alias, AliasName="alias/boto3", TargetKeyId=key["KeyId"])
print(f"ok: {checks} checks")
