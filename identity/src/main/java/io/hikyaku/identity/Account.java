package io.hikyaku.identity;

import java.util.List;

/**
 * A configured account: its root keys, users and roles.
 *
 * @param id    the 12-digit account id
 * @param users the account's IAM users
 * @param roles the account's IAM roles
 */
public record Account(String id, List<User> users, List<Role> roles) {

    public Account {
        users = List.copyOf(users);
        roles = List.copyOf(roles);
    }
}
