package io.hikyaku.filter;

/** What an SNS subscription's filter policy looks at: the message attributes (the default) or the JSON body. */
public enum FilterPolicyScope {
    MessageAttributes,
    MessageBody;

    /** The scope named {@code value}, or an SNS validation error naming the value. */
    public static FilterPolicyScope parse(String value) throws FilterPolicyException {
        for (FilterPolicyScope s : values()) {
            if (s.name().equals(value)) {
                return s;
            }
        }
        throw new FilterPolicyException("FilterPolicyScope: Invalid value [" + value
                + "]. Please use either MessageBody or MessageAttributes");
    }
}
