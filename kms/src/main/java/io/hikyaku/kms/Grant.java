package io.hikyaku.kms;

import java.util.List;
import java.util.TreeMap;

/**
 * A grant on a key: the grantee may perform {@code operations} on it (under the encryption context constraints),
 * the retiring principal may retire it. Logged whole (as JSON) in a CreateGrant command, so replay rebuilds it.
 *
 * @param issuingAccount the account whose caller created the grant
 * @param contextSubset  EncryptionContextSubset: the request's context must include these pairs (null: none)
 * @param contextEquals  EncryptionContextEquals: the request's context must be exactly these pairs (null: none)
 */
record Grant(String grantId, String keyId, String name, String granteePrincipal, String retiringPrincipal,
             List<String> operations, TreeMap<String, String> contextSubset, TreeMap<String, String> contextEquals,
             String issuingAccount, long created) {

    /** Same grant as far as CreateGrant's idempotency goes (AWS: same name and same parameters). */
    boolean sameAs(Grant other) {
        return name != null && name.equals(other.name) && granteePrincipal.equals(other.granteePrincipal)
                && java.util.Objects.equals(retiringPrincipal, other.retiringPrincipal)
                && new java.util.TreeSet<>(operations).equals(new java.util.TreeSet<>(other.operations))
                && java.util.Objects.equals(contextSubset, other.contextSubset)
                && java.util.Objects.equals(contextEquals, other.contextEquals);
    }
}
