/*
 * What the monitor answers itself (monitor/exchange/answer.c; doc/answers.md): build
 * prune and system df are never forwarded, their answers come from the
 * monitor's own internal requests and only for the daemons they were measured
 * on; a libpod system prune is forwarded only when no pod that is not the
 * project's exists. The world is tests/monitor_fixture.h: the test plays the
 * child and the client, the fake backend answers in order.
 */
#include "tests/monitor_fixture.h"

#include "monitor/conn.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/netcompat.h"
#include "monitor/log.h"

#define LABEL_Q	"filters=%7B%22label%22%3A%5B%22org.apache.magpie.project" \
	"%3D%2Fhome%2Fu%2Fproj%22%5D%7D"

/* What the client reads until the monitor closes or goes quiet. */
static char *
client_gets(struct t *t, int ms)
{
	static char acc[1 << 16];
	size_t n = 0, got;
	long long end = mono_ms() + ms;
	int eof = 0;
	char *p;

	while (mono_ms() < end && !eof) {
		pump(t->c);
		p = cl_read(t, &got, &eof);
		assert_true(n + got < sizeof(acc));
		memcpy(acc + n, p, got);
		n += got;
	}
	acc[n] = '\0';
	return acc;
}

/*
 * The child's view: VERDICT forwarding (a synced exchange: a POST; none
 * for a light GET, privsep.md §8), then RESPONSE_END (its mode).
 */
static int
child_sees_answer(struct t *t)
{
	struct ipc_msg m;

	if (t->c->fw.synced) {
		t_expect_msg(t, IPC_VERDICT, &m);
		assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_FORWARDING);
	}
	t_expect_end(t, &m);
	return m.u.response_end.mode;
}

/* The request line backend connection i received. */
static char *
request_line(int i)
{
	static char line[1024];
	char *s = fb_read(i), *e = strstr(s, "\r\n");

	snprintf(line, sizeof(line), "%.*s", e != NULL ? (int)(e - s) : 0, s);
	return line;
}

/* FORWARD target on t (no body, no header) and run until the answer is out. */
static void
forward(struct t *t, uint32_t req, const char *method, const char *target)
{
	struct ipc_msg m = strcmp(method, "POST") == 0 ?
	    m_fwd(req, method, target, "Content-Length", "0", NULL) :
	    m_fwd(req, method, target, NULL);

	if (t_send_run(t, &m) != 0)
		fail_msg("FORWARD %s %s refused:\n%s", method, target,
		    log_text());
	/* a refusal (RS_WAIT_DONE) or the answer's RESPONSE_END */
	assert_true(drive(t->c, RS_WAIT_DONE, 1000) || t->c->end_sent);
}

/* The child's DONE, when the exchange takes one (not a light kept-alive). */
static void
done(struct t *t, uint32_t req)
{
	struct ipc_msg m = m_simple(IPC_DONE, req);

	if (t->c->rs == RS_IDLE && !t->c->fw.synced && !t->c->closing)
		return;
	assert_int_equal(t_send_run(t, &m), 0);
	assert_int_equal(t->c->rs, RS_IDLE);
}

/*
 * FORWARD target on t (request req): the monitor's own 403
 * denied-endpoint, whose message holds detail and ends with "; hint";
 * the connection closes after it. Then DONE.
 */
static void
refused_403(struct t *t, uint32_t req, const char *method, const char *target,
    const char *detail, const char *hint)
{
	char want[1024], *got;

	forward(t, req, method, target);
	assert_int_equal(child_sees_answer(t), IPC_END_CLOSE);
	got = client_gets(t, 30);
	assert_true(strncmp(got, "HTTP/1.1 403 Forbidden\r\n", 24) == 0);
	snprintf(want, sizeof(want), "container-gateway: denied-endpoint: %s",
	    detail);
	if (strstr(got, want) == NULL)
		fail_msg("%s\nlacks %s", got, want);
	snprintf(want, sizeof(want), "; %s\"}", hint);
	if (strstr(got, want) == NULL)
		fail_msg("%s\nlacks %s", got, want);
	assert_null(strstr(got, "/srv/b"));	/* names nothing foreign */
	assert_log("decision=deny code=denied-endpoint status=403");
	done(t, req);
}

/*
 * FORWARD target on t (request 1): the monitor refuses it with a 502
 * VERDICT saying detail, after asking the backend `asked` times.
 */
static void
refused_502(struct t *t, const char *method, const char *target,
    const char *detail, int asked)
{
	struct ipc_msg m;

	forward(t, 1, method, target);
	t_expect_msg(t, IPC_VERDICT, &m);
	assert_int_equal(m.u.verdict.outcome, IPC_OUTCOME_REFUSED);
	assert_true(str_is(&m.u.verdict.code, "backend-unreachable"));
	if (!str_is(&m.u.verdict.detail, detail))
		fail_msg("detail %.*s, want %s", (int)m.u.verdict.detail.len,
		    m.u.verdict.detail.p, detail);
	pump(t->c);
	assert_int_equal(fb.nfds, asked);
	done(t, 1);
}

#define EMPTY_PRUNE	"{\"CachesDeleted\":[],\"SpaceReclaimed\":0}"

/*
 * build prune on a measured daemon: the monitor's own 200, the backend
 * never asked, the access line allow; the connection stays open. On a
 * daemon that did not identify itself: 403 with the reason and what to
 * do instead, still nothing asked.
 */
static void
test_build_prune(void **state)
{
	static const char want[] = "HTTP/1.1 200 OK\r\nContent-Type: "
	    "application/json\r\nContent-Length: 39\r\n" CGV "\r\n" EMPTY_PRUNE;
	enum backend_ident ids[] = { BACKEND_LIBPOD, BACKEND_DOCKERD };
	struct t t;
	size_t i;

	(void)state;
	for (i = 0; i < 2; i++) {
		gw.lis[0].backend_ident = ids[i];
		t_open(&t, sock_up);
		forward(&t, 1, "POST", "/v1.41/build/prune");
		assert_int_equal(child_sees_answer(&t), IPC_END_KEEP_ALIVE);
		assert_string_equal(client_gets(&t, 30), want);
		assert_log("method=POST path=/v1.41/build/prune decision=allow "
		    "code=- status=200");
		assert_int_equal(log_count("access conn="), 1);
		assert_int_equal(fb.nfds, 0);
		done(&t, 1);
		t_close(&t, HANDLED);
	}
	gw.lis[0].backend_ident = BACKEND_UNKNOWN;
	t_open(&t, sock_up);
	refused_403(&t, 1, "POST", "/v1.41/build/prune", "build/prune is "
	    "answered only for a podman or docker daemon",
	    "remove the project's images with docker rmi");
	assert_int_equal(fb.nfds, 0);
	t_close(&t, HANDLED);
}

/*
 * system df (compat): four internal requests (the lists with the
 * project's label filter, images, the df) and the composed answer
 * (monitor/exchange/usage.c, tested in test_usage.c); the client gets only ours.
 */
static void
test_df(void **state)
{
	static const char ctrs[] = "[{\"Id\":\"c1\",\"ImageID\":\"sha256:i1\","
	    "\"Labels\":{\"" KEY "\":\"" ROOT "\"}},{\"Id\":\"c2\",\"ImageID\":"
	    "\"sha256:i1\",\"Labels\":{\"" KEY "\":\"/srv/b\"}}]";
	static const char vols[] = "{\"Volumes\":[{\"Name\":\"va\",\"Labels\":{\""
	    KEY "\":\"" ROOT "\"}}]}";
	static const char imgs[] = "[{\"Id\":\"sha256:i1\",\"Labels\":null,"
	    "\"SharedSize\":0,\"Size\":10}]";
	static const char df[] = "{\"Images\":[],\"Containers\":[],\"Volumes\":"
	    "[{\"Name\":\"va\",\"UsageData\":{\"RefCount\":1,\"Size\":5}}]}";
	static const char body[] = "{\"LayersSize\":0,\"Images\":[{\"Id\":"
	    "\"sha256:i1\",\"Labels\":null,\"SharedSize\":10,\"Size\":10,"
	    "\"Containers\":1}],\"Containers\":[{\"Id\":\"c1\",\"ImageID\":"
	    "\"sha256:i1\",\"Labels\":{\"" KEY "\":\"" ROOT "\"}}],\"Volumes\":"
	    "[{\"Name\":\"va\",\"Labels\":{\"" KEY "\":\"" ROOT "\"},\"UsageData\":"
	    "{\"RefCount\":1,\"Size\":5}}],\"BuildCache\":[],\"BuilderSize\":0}";
	char want[2048], *got;
	struct t t;

	(void)state;
	snprintf(want, sizeof(want), "HTTP/1.1 200 OK\r\nContent-Type: "
	    "application/json\r\nContent-Length: %zu\r\n" CGV "\r\n%s",
	    sizeof(body) - 1, body);
	gw.lis[0].backend_ident = BACKEND_DOCKERD;
	t_open(&t, sock_up);
	fb_queue(http_resp(200, ctrs), 1);
	fb_queue(http_resp(200, vols), 1);
	fb_queue(http_resp(200, imgs), 1);
	fb_queue(http_resp(200, df), 1);
	forward(&t, 1, "GET", "/v1.41/system/df");
	assert_int_equal(child_sees_answer(&t), IPC_END_KEEP_ALIVE);
	got = client_gets(&t, 30);
	assert_string_equal(got, want);
	assert_int_equal(fb.nfds, 4);
	assert_string_equal(request_line(0), "GET /v1.41/containers/json?all=1&"
	    "size=1&" LABEL_Q " HTTP/1.1");
	assert_string_equal(request_line(1), "GET /v1.41/volumes?" LABEL_Q
	    " HTTP/1.1");
	assert_string_equal(request_line(2), "GET /v1.41/images/json HTTP/1.1");
	assert_string_equal(request_line(3), "GET /v1.41/system/df HTTP/1.1");
	assert_log("method=GET path=/v1.41/system/df decision=allow code=- "
	    "status=200");
	assert_int_equal(log_count("access conn="), 1);
	done(&t, 1);

	/* libpod: its own paths */
	fb_reset();
	fb_queue(http_resp(200, "[]"), 1);
	fb_queue(http_resp(200, "[]"), 1);
	fb_queue(http_resp(200, "[]"), 1);
	fb_queue(http_resp(200, "{\"Images\":[],\"Containers\":[],\"Volumes\""
	    ":[]}"), 1);
	log_reset();
	forward(&t, 2, "GET", "/v4.3.1/libpod/system/df");
	assert_int_equal(child_sees_answer(&t), IPC_END_KEEP_ALIVE);
	got = client_gets(&t, 30);
	assert_non_null(strstr(got, "\r\n\r\n{\"Images\":[],\"Containers\":[],"
	    "\"Volumes\":[]}"));
	assert_string_equal(request_line(0), "GET /v4.3.1/libpod/containers/json"
	    "?all=true&" LABEL_Q " HTTP/1.1");
	assert_string_equal(request_line(1), "GET /v4.3.1/libpod/volumes/json?"
	    LABEL_Q " HTTP/1.1");
	assert_string_equal(request_line(2), "GET /v4.3.1/libpod/images/json?"
	    "all=true HTTP/1.1");
	assert_string_equal(request_line(3), "GET /v4.3.1/libpod/system/df "
	    "HTTP/1.1");
	done(&t, 2);
	t_close(&t, HANDLED);
}

/*
 * system df where it cannot be done: an unmeasured daemon (refused with
 * the reason, nothing asked: the conformance kit's fake daemon), a df the
 * usage code cannot read (502 after the requests), a failed request (502
 * at once, no later request).
 */
static void
test_df_refused(void **state)
{
	struct t t;

	(void)state;
	gw.lis[0].backend_ident = BACKEND_UNKNOWN;
	t_open(&t, sock_up);
	refused_403(&t, 1, "GET", "/v4.3.1/libpod/system/df", "system/df is "
	    "answered per project only for a podman or docker daemon, whose df "
	    "answers the gateway was measured on; this backend did not identify "
	    "itself as either", "see the project's usage with docker ps -a "
	    "--size, docker images and docker volume ls");
	assert_int_equal(fb.nfds, 0);
	t_close(&t, HANDLED);

	gw.lis[0].backend_ident = BACKEND_LIBPOD;
	t_open(&t, sock_up);
	fb_queue(http_resp(200, "[]"), 1);
	fb_queue(http_resp(200, "{\"Volumes\":[]}"), 1);
	fb_queue(http_resp(200, "[]"), 1);
	fb_queue(http_resp(200, "{}"), 1);
	refused_502(&t, "GET", "/v1.41/system/df", "the podman backend's disk "
	    "usage answers could not be read", 4);
	t_close(&t, HANDLED);

	t_open(&t, sock_up);
	fb_queue(http_resp(500, "{\"message\":\"boom\"}"), 1);
	refused_502(&t, "GET", "/v1.41/system/df", "the podman backend answered "
	    "the gateway's own request with status 500", 1);
	t_close(&t, HANDLED);
}

#define PRUNE	"/v4.3.1/libpod/system/prune?volumes=true&" LABEL_Q

/*
 * libpod system prune: the pod list first (no filter: every pod); only
 * the project's pods -> the prune is forwarded as the policy wrote it;
 * any other pod -> 403 with the reason, the prune never sent.
 */
static void
test_system_prune_precheck(void **state)
{
	static const char own[] = "{\"Name\":\"pa\",\"Labels\":{\"" KEY "\":\""
	    ROOT "\"}}";
	char pods[256], *got;
	struct t t;

	(void)state;
	gw.lis[0].backend_ident = BACKEND_LIBPOD;
	t_open(&t, sock_up);
	snprintf(pods, sizeof(pods), "[%s]", own);
	fb_queue(http_resp(200, pods), 1);
	fb_queue(http_resp(200, "{\"PodPruneReport\":null}"), 0);
	forward(&t, 1, "POST", PRUNE);
	assert_int_equal(child_sees_answer(&t), IPC_END_KEEP_ALIVE);
	got = client_gets(&t, 30);
	assert_non_null(strstr(got, "{\"PodPruneReport\":null}"));
	assert_int_equal(fb.nfds, 2);
	assert_string_equal(request_line(0), "GET /v4.3.1/libpod/pods/json "
	    "HTTP/1.1");
	assert_string_equal(request_line(1), "POST " PRUNE " HTTP/1.1");
	done(&t, 1);

	/* another project's pod (and an unmanaged one): refused */
	fb_reset();
	log_reset();
	snprintf(pods, sizeof(pods), "[%s,{\"Name\":\"pb\",\"Labels\":{\"" KEY
	    "\":\"/srv/b\"}},{\"Name\":\"pu\",\"Labels\":{}}]", own);
	fb_queue(http_resp(200, pods), 1);
	refused_403(&t, 2, "POST", PRUNE, "system prune is refused while pods "
	    "that are not this project's exist on this podman: podman 4.3 removes "
	    "every project's stopped pods and their containers whatever the "
	    "filter", "prune by kind: docker system prune, or podman --remote "
	    "container prune, image prune, network prune and volume prune; remove "
	    "your own pods with podman --remote pod rm");
	assert_int_equal(fb.nfds, 1);
	assert_log("path=/v4.3.1/libpod/system/prune decision=deny");
	t_close(&t, HANDLED);

	/* a pod list the monitor cannot read: 502, nothing pruned */
	t_open(&t, sock_up);
	fb_queue(http_resp(200, "{\"not\":\"a list\"}"), 1);
	refused_502(&t, "POST", PRUNE, "the podman backend's pod list could not "
	    "be read", 1);
	t_close(&t, HANDLED);
}

/*
 * Compat network inspect and list on a podman that says so: written from
 * the libpod answers (monitor/exchange/netcompat.h; podman 4.3.1's own compat
 * handlers strip isolate from the networks it holds), in podman's compat
 * shape, without the isolate option, the project's only; never sent to
 * podman's compat network routes.
 */
#define LNET(n, id, root) "{\"name\":\"" n "\",\"id\":\"" id "\"," \
	"\"driver\":\"bridge\",\"network_interface\":\"podman3\",\"created\":" \
	"\"2026-12-07T04:40:37.46Z\",\"subnets\":[{\"subnet\":\"10.9.7.0/24\"," \
	"\"gateway\":\"10.9.7.1\"}],\"ipv6_enabled\":false,\"internal\":false," \
	"\"dns_enabled\":true,\"labels\":{\"" KEY "\":\"" root "\"}," \
	"\"options\":{\"isolate\":\"true\",\"mtu\":\"1400\"},\"ipam_options\":" \
	"{\"driver\":\"host-local\"}}"
#define CNET(n, id) "{\"Name\":\"" n "\",\"Id\":\"" id "\",\"Created\":" \
	"\"2026-12-07T04:40:37.46Z\",\"Scope\":\"local\",\"Driver\":\"bridge\"," \
	"\"EnableIPv6\":false,\"IPAM\":{\"Driver\":\"default\",\"Options\":" \
	"{\"driver\":\"host-local\"},\"Config\":[{\"Subnet\":\"10.9.7.0/24\"," \
	"\"Gateway\":\"10.9.7.1\"}]},\"Internal\":false,\"Attachable\":false," \
	"\"Ingress\":false,\"ConfigFrom\":{\"Network\":\"\"},\"ConfigOnly\":false," \
	"\"Containers\":{\"c1\":{\"Name\":\"web\",\"EndpointID\":\"\"," \
	"\"MacAddress\":\"aa:bb\",\"IPv4Address\":\"10.9.7.2/24\",\"IPv6Address\":" \
	"\"\"}},\"Options\":{\"mtu\":\"1400\"},\"Labels\":{\"" KEY "\":\"" ROOT \
	"\"}}"

static void
test_network_answers(void **state)
{
	static const char ctrs[] = "[{\"Id\":\"c1\",\"Names\":[\"/web\"],"
	    "\"Labels\":{\"" KEY "\":\"" ROOT "\"},\"NetworkSettings\":{"
	    "\"Networks\":{\"pn\":{\"EndpointID\":\"\",\"IPAddress\":"
	    "\"10.9.7.2\",\"IPPrefixLen\":24,\"MacAddress\":\"aa:bb\"}}}},"
	    "{\"Id\":\"c2\",\"Names\":[\"/theirs\"],\"Labels\":{\"" KEY
	    "\":\"/srv/b\"},\"NetworkSettings\":{\"Networks\":{\"pn\":{}}}}]";
	static const char list[] = "[" LNET("pn", "p1", ROOT) ","
	    LNET("theirs", "t1", "/srv/b") "]";
	char *out, want[4096], *got;
	size_t len;
	struct t t;

	(void)state;
	/* the pure conversion */
	assert_int_equal(netcompat_answer(list, strlen(list), 0, ctrs,
	    strlen(ctrs), ROOT, &out, &len), 0);
	assert_string_equal(out, "[" CNET("pn", "p1") "]");
	free(out);
	assert_int_equal(netcompat_answer(LNET("pn", "p1", ROOT),
	    strlen(LNET("pn", "p1", ROOT)), 1, ctrs, strlen(ctrs), ROOT, &out,
	    &len), 0);
	assert_string_equal(out, CNET("pn", "p1"));
	free(out);
	assert_int_equal(netcompat_answer(LNET("t", "t1", "/srv/b"),
	    strlen(LNET("t", "t1", "/srv/b")), 1, ctrs, strlen(ctrs), ROOT, &out,
	    &len), -2);
	assert_int_equal(netcompat_answer("{\"name\":1}", 10, 0, ctrs,
	    strlen(ctrs), ROOT, &out, &len), -1);

	/* the list route: libpod list, the project's containers, the answer */
	gw.lis[0].backend_ident = BACKEND_LIBPOD;
	t_open(&t, sock_up);
	fb_queue(http_resp(200, list), 1);
	fb_queue(http_resp(200, ctrs), 1);
	forward(&t, 1, "GET", "/v1.41/networks?" LABEL_Q);
	assert_int_equal(child_sees_answer(&t), IPC_END_KEEP_ALIVE);
	got = client_gets(&t, 30);
	snprintf(want, sizeof(want), "\r\n\r\n[%s]", CNET("pn", "p1"));
	if (strstr(got, want) == NULL)
		fail_msg("%s\nlacks %s", got, want);
	assert_int_equal(fb.nfds, 2);
	assert_string_equal(request_line(0), "GET /v4.0.0/libpod/networks/json?"
	    LABEL_Q " HTTP/1.1");
	assert_string_equal(request_line(1), "GET /v1.41/containers/json?all=1&"
	    LABEL_Q " HTTP/1.1");
	done(&t, 1);
	t_close(&t, HANDLED);
	gw.lis[0].backend_ident = BACKEND_UNKNOWN;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_prune),
		cmocka_unit_test(test_df),
		cmocka_unit_test(test_df_refused),
		cmocka_unit_test(test_system_prune_precheck),
		cmocka_unit_test(test_network_answers),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
