/*
 * The policy context the policy unit tests route with (test_assemble,
 * test_lenient, test_policy_driver, test_querykeys, test_routes).
 */
#ifndef CG_TEST_POLICY_CTX_H
#define CG_TEST_POLICY_CTX_H

#include <string.h>

#include "policy/policy.h"

/*
 * A context for project root (the label value) on a socket of kind sock
 * in front of a backend of kind backend, asking facts (NULL: every
 * question fails closed); no egress, no proxy, --backend-timeout 60 s
 * (cli.md's default, the figure 504 details name). Returns it by value.
 */
static struct cg_policy_ctx
policy_test_ctx(const char *root, enum cg_kind sock, enum cg_kind backend,
    const struct cg_facts *facts)
{
	struct cg_policy_ctx c;

	memset(&c, 0, sizeof(c));
	c.root = root;
	c.socket_kind = sock;
	c.backend_kind = backend;
	c.facts = facts;
	c.backend_timeout_ms = 60000;
	return c;
}

#endif
