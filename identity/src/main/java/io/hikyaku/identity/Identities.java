package io.hikyaku.identity;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configured accounts with their long-term access keys, users and roles. Immutable; built by
 * {@link IdentitiesConfig} from the config file's {@code accounts:} section.
 */
public final class Identities {

    public static final Identities NONE = new Identities(List.of(), List.of());

    private final Map<String, Account> accounts = new LinkedHashMap<>();
    private final Map<String, Credential> keys = new LinkedHashMap<>();
    private final Map<String, Role> rolesByArn = new LinkedHashMap<>();

    public Identities(List<Account> accounts, List<Credential> keys) {
        for (Account a : accounts) {
            if (this.accounts.putIfAbsent(a.id(), a) != null) {
                throw new IllegalArgumentException("account " + a.id() + " is configured twice");
            }
            for (Role r : a.roles()) {
                rolesByArn.put(r.arn(), r);
            }
        }
        for (Credential c : keys) {
            if (this.keys.putIfAbsent(c.accessKeyId(), c) != null) {
                throw new IllegalArgumentException("access key id " + c.accessKeyId() + " is configured twice");
            }
        }
    }

    /** The long-term key with this id, if configured. */
    public Optional<Credential> key(String accessKeyId) {
        return Optional.ofNullable(keys.get(accessKeyId));
    }

    /** The role with this ARN ({@code arn:aws:iam::<account>:role/<name>}), if configured. */
    public Optional<Role> role(String roleArn) {
        return Optional.ofNullable(rolesByArn.get(roleArn));
    }

    public Optional<Account> account(String id) {
        return Optional.ofNullable(accounts.get(id));
    }

    public Collection<Account> accounts() {
        return accounts.values();
    }

    /** How many long-term keys are configured. */
    public int keyCount() {
        return keys.size();
    }

    public boolean isEmpty() {
        return accounts.isEmpty();
    }

    @Override
    public String toString() {
        return "Identities[" + accounts.size() + " accounts, " + keys.size() + " keys]";
    }
}
