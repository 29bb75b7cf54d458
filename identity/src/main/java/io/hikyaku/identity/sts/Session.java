package io.hikyaku.identity.sts;

import io.hikyaku.identity.Credential;

/**
 * A temporary credential STS issued, with what it was issued from: the key that asked for it (a
 * configured long-term key or another session), and the configured role it is a session of. While
 * either is gone (removed by a config reload), the session does not authenticate.
 *
 * @param credential    the temporary key, secret, token, principal and expiration
 * @param parentKeyId   the access key id that called STS, or null when it stood for nothing configured (auth none)
 * @param parentArn     the principal that key stood for when the session was issued
 * @param roleArn       the configured role of an AssumeRole session, or null (GetSessionToken, or an unconfigured role with auth none)
 * @param quotaAccount  the calling account, whose quota the session counts against (null: no quota, auth none)
 * @param quotaPrincipal the calling principal's ARN, whose quota the session counts against (null: no quota, auth none)
 */
public record Session(Credential credential, String parentKeyId, String parentArn, String roleArn,
                      String quotaAccount, String quotaPrincipal) {

    /** True for a session minted by GetSessionToken (it stands for its caller, not a role). */
    public boolean fromGetSessionToken() {
        return roleArn == null && credential.principal().roleArn() == null;
    }
}
