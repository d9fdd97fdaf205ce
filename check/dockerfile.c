/*
 * The checker's Dockerfile reader (check/dockerfile.h). The parsing
 * follows openshift/imagebuilder's parser.go, split_command.go and
 * shell_parser.go as vendored by podman 4.3.1 (imagebuilder
 * v1.2.4-0.20220711175835), where the classic builder of dockerd 20.10
 * agrees; where they could differ (which lines are directives) every
 * reading is checked.
 */
#include "check/dockerfile.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/imageref.h"

/* ---------------------------------------------------------------- strings */

struct sb {
	char *p;
	size_t len, cap;
};

static void
sb_add(struct sb *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		s->cap = (s->len + n + 1) * 2;
		s->p = xrealloc(s->p, s->cap);
	}
	memcpy(s->p + s->len, p, n);
	s->len += n;
	s->p[s->len] = '\0';
}

static void
sb_ch(struct sb *s, char c)
{
	sb_add(s, &c, 1);
}

static const char *
sb_str(struct sb *s)
{
	if (s->p == NULL)
		sb_add(s, "", 0);
	return s->p;
}

/* Go's unicode.IsSpace on one byte (ASCII and Latin-1 spaces). */
static int
is_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r' || c == 0x85 || c == 0xa0;
}

/* --------------------------------------------------------- environment */

#define ENV_MAX	512

struct env {
	size_t n;
	char *name[ENV_MAX];
	char *value[ENV_MAX];
};

static const char *
env_get(const struct env *e, const char *name)
{
	size_t i;

	for (i = e->n; i > 0; i--)
		if (strcmp(e->name[i - 1], name) == 0)
			return e->value[i - 1];
	return NULL;
}

static void
env_set(struct env *e, const char *name, const char *value)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (strcmp(e->name[i], name) == 0) {
			free(e->value[i]);
			e->value[i] = xstrdup(value);
			return;
		}
	if (e->n == ENV_MAX)
		return;		/* more is not remembered: checked raw too */
	e->name[e->n] = xstrdup(name);
	e->value[e->n++] = xstrdup(value);
}

static void
env_free(struct env *e)
{
	size_t i;

	for (i = 0; i < e->n; i++) {
		free(e->name[i]);
		free(e->value[i]);
	}
	e->n = 0;
}

/* ------------------------------------------------ ProcessWord (imagebuilder) */

struct word {
	const char *s;
	size_t i, n;
	const struct env *a, *b;	/* looked up in b, then a */
	int bad;
};

static int peek(struct word *w) { return w->i < w->n ? (unsigned char)w->s[w->i] : -1; }
static int next(struct word *w) { return w->i < w->n ? (unsigned char)w->s[w->i++] : -1; }

static const char *
lookup(struct word *w, const char *name)
{
	const char *v = w->b ? env_get(w->b, name) : NULL;

	if (v == NULL && w->a)
		v = env_get(w->a, name);
	return v != NULL ? v : "";
}

static void process_until(struct word *w, int stop, struct sb *out);

static void
process_name(struct word *w, struct sb *name)
{
	int c;

	while ((c = peek(w)) != -1) {
		if (name->len == 0 && isdigit(c)) {
			sb_ch(name, (char)next(w));
			return;
		}
		/* a byte >= 0x80 is taken as a letter (unicode.IsLetter) */
		if (!isalnum(c) && c != '_' && c < 0x80)
			break;
		sb_ch(name, (char)next(w));
	}
}

static void
process_dollar(struct word *w, struct sb *out)
{
	struct sb name = { 0 }, word = { 0 };
	const char *v;
	int c, mod;

	next(w);
	if (peek(w) == '{') {
		next(w);
		process_name(w, &name);
		c = peek(w);
		if (c == '}') {
			next(w);
			v = lookup(w, sb_str(&name));
			sb_add(out, v, strlen(v));
		} else if (c == ':') {
			next(w);
			mod = next(w);
			process_until(w, '}', &word);
			v = lookup(w, sb_str(&name));
			if (mod == '+')
				v = v[0] != '\0' ? sb_str(&word) : "";
			else if (mod == '-')
				v = v[0] == '\0' ? sb_str(&word) : v;
			else
				w->bad = 1;
			sb_add(out, v, strlen(v));
		} else {
			w->bad = 1;
		}
		free(name.p);
		free(word.p);
		return;
	}
	process_name(w, &name);
	if (name.len == 0)
		sb_ch(out, '$');
	else {
		v = lookup(w, name.p);
		sb_add(out, v, strlen(v));
	}
	free(name.p);
}

static void
process_until(struct word *w, int stop, struct sb *out)
{
	int c;

	while ((c = peek(w)) != -1 && !w->bad) {
		if (stop != -1 && c == stop) {
			next(w);
			return;
		}
		if (c == '\'') {
			next(w);
			while ((c = next(w)) != '\'') {
				if (c == -1) {
					w->bad = 1;
					return;
				}
				sb_ch(out, (char)c);
			}
		} else if (c == '"') {
			next(w);
			for (;;) {
				c = peek(w);
				if (c == '"') {
					next(w);
					break;
				}
				if (c == -1) {
					w->bad = 1;
					return;
				}
				if (c == '$') {
					process_dollar(w, out);
					continue;
				}
				c = next(w);
				if (c == '\\') {
					int n2 = peek(w);

					if (n2 == -1)
						continue;
					if (n2 == '"' || n2 == '$' || n2 == '\\')
						c = next(w);
				}
				sb_ch(out, (char)c);
			}
		} else if (c == '$') {
			process_dollar(w, out);
		} else {
			c = next(w);
			if (c == '\\') {
				c = next(w);
				if (c == -1)
					break;
			}
			sb_ch(out, (char)c);
		}
	}
	if (stop != -1)
		w->bad = 1;
}

/*
 * imagebuilder's ProcessWord(s, env) with env looked up in b, then a:
 * quotes, backslash escapes, $NAME, ${NAME}, ${NAME:-x}, ${NAME:+x}.
 * Returns a malloc'd string, or NULL where imagebuilder fails (the build
 * then fails too).
 */
static char *
process_word(const char *s, const struct env *a, const struct env *b)
{
	struct word w = { .s = s, .n = strlen(s), .a = a, .b = b };
	struct sb out = { 0 };

	process_until(&w, -1, &out);
	if (w.bad) {
		free(out.p);
		return NULL;
	}
	(void)sb_str(&out);
	return out.p;
}

/* ---------------------------------------------------------------- lines */

struct line {
	const char *p;
	size_t n;
};

/* bufio.ScanLines: split at '\n', one '\r' before it dropped. */
static struct line *
split_lines(const char *text, size_t len, size_t *count)
{
	struct line *v = NULL;
	size_t n = 0, cap = 0, i = 0, j;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);

		j = nl != NULL ? (size_t)(nl - text) : len;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = xrealloc(v, cap * sizeof(*v));
		}
		v[n].p = text + i;
		v[n].n = j - i;
		if (nl != NULL && v[n].n > 0 && v[n].p[v[n].n - 1] == '\r')
			v[n].n--;
		n++;
		i = j + 1;
	}
	*count = n;
	return v;
}

static size_t
skip_space(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && is_space((unsigned char)p[i]))
		i++;
	return i;
}

/*
 * A parser directive "# name = value" on line l (after leading blanks
 * were trimmed): 1 and the value's first byte in *val when l is one for
 * the directive name.
 */
static int
directive(const char *p, size_t n, const char *name, char *val)
{
	size_t i = 0, k = strlen(name);

	if (n == 0 || p[0] != '#')
		return 0;
	for (i = 1; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	if (n - i < k || strncasecmp(p + i, name, k) != 0)
		return 0;
	for (i += k; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	if (i == n || p[i] != '=')
		return 0;
	for (i++; i < n && (p[i] == ' ' || p[i] == '\t'); i++)
		;
	if (i == n)
		return 0;
	*val = (char)tolower((unsigned char)p[i]);
	return 1;
}

/* trimContinuationCharacter: strip "<esc>[ \t]*$", 1 when stripped. */
static int
continued(const char *p, size_t *n, char esc)
{
	size_t j = *n;

	while (j > 0 && (p[j - 1] == ' ' || p[j - 1] == '\t'))
		j--;
	if (j == 0 || p[j - 1] != esc)
		return 0;
	*n = j - 1;
	return 1;
}

/* ---------------------------------------------------------------- checks */

#define STAGES_MAX	256	/* stage names remembered per reading */

struct state {
	const struct df_params *prm;
	struct cg_refusal *r;
	const char *origin;	/* "Dockerfile", or the triggers' image */
	struct env heading;	/* ARGs before the first FROM, final values */
	struct env args, env;	/* the current stage's */
	int staged;		/* a FROM was seen */
	size_t nstages;		/* FROMs seen */
	char *stage[STAGES_MAX];	/* their names: AS NAME, else the index */
	size_t lineno;
	char scratch[260];
};

static int
refuse_transport(struct state *s, const char *what, const char *v)
{
	return cg_refuse_hint(s->r, "host-path", "name an image (NAME[:TAG]) "
	    "or a build stage without a transport prefix",
	    "%s line %zu: %s %s names an image transport: the daemon "
	    "would read that host path as root", s->origin, s->lineno, what,
	    cg_quote(v, strlen(v), s->scratch));
}

/* v raw and expanded with the stage's (or the heading) variables. */
static int
check_ref(struct state *s, const char *what, const char *raw, int heading)
{
	char *x;
	int bad;

	if (image_ref_transport(raw))
		return refuse_transport(s, what, raw);
	x = heading ? process_word(raw, &s->heading, NULL) :
	    process_word(raw, &s->args, &s->env);
	bad = x != NULL && image_ref_transport(x);
	if (bad)
		(void)refuse_transport(s, what, x);
	free(x);
	return bad ? -1 : 0;
}

/* Go's filepath.Clean("/" + src) == "/": the root of the mounted image. */
static int
source_is_root(const char *src)
{
	const char *p = src;
	size_t depth = 0;

	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.'))
			;
		else if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (depth > 0)
				depth--;
		} else {
			depth++;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return depth == 0;
}

/*
 * One --mount value m (expanded) of a RUN; *type carries the mount type
 * across the RUN's mounts (buildah's runSetupRunMounts never resets it).
 */
static int
check_mount(struct state *s, const char *m, char *type, size_t tcap)
{
	const char *f = m, *from = NULL, *src = "";
	size_t n, fromlen = 0, srclen = 0;
	char buf[4200], q[260];

	for (;;) {
		n = strcspn(f, ",");
		if (n > 5 && strncmp(f, "type=", 5) == 0 &&
		    memchr(f + 5, '=', n - 5) == NULL) {
			snprintf(type, tcap, "%.*s", (int)(n - 5), f + 5);
		} else if (n >= 5 && strncmp(f, "from=", 5) == 0) {
			from = f + 5;
			fromlen = n - 5;
		} else if (n >= 4 && strncmp(f, "src=", 4) == 0) {
			src = f + 4;
			srclen = n - 4;
		} else if (n >= 7 && strncmp(f, "source=", 7) == 0) {
			src = f + 7;
			srclen = n - 7;
		}
		if (f[n] == '\0')
			break;
		f += n + 1;
	}
	if (from != NULL) {
		snprintf(buf, sizeof(buf), "%.*s", (int)fromlen, from);
		if (image_ref_transport(buf))
			return refuse_transport(s, "RUN --mount from", buf);
	}
	if (strcmp(type, "cache") == 0)
		return cg_refuse_hint(s->r, "bind-mount", "drop the cache mount "
		    "(RUN steps work without it), or build with a podman that has "
		    "the fix for CVE-2024-1753",
		    "%s line %zu: RUN --mount type=cache is refused: "
		    "podman joins its id or target to a host directory that every "
		    "build shares and follows the symlinks there (%s)", s->origin,
		    s->lineno,
		    cg_quote(m, strlen(m), q));
	if (strcmp(type, "bind") == 0 && from != NULL) {
		snprintf(buf, sizeof(buf), "%.*s", (int)srclen, src);
		if (!source_is_root(buf))
			return cg_refuse_hint(s->r, "bind-mount", "use COPY "
			    "--from=<stage> <path> instead, or mount the whole "
			    "stage (no source)", "%s line %zu: RUN --mount "
			    "from=... with a source is refused: podman follows the "
			    "image's symlinks on the host (CVE-2024-1753) (%s)",
			    s->origin, s->lineno, cg_quote(m, strlen(m), q));
	}
	return 0;
}

/* A RUN's flags: every --mount=, raw and expanded. */
static int
check_run_flags(struct state *s, char **flags, size_t nflags)
{
	char type_raw[64] = "bind", type_x[64] = "bind";
	size_t i;
	char *x;
	int rc = 0;

	for (i = 0; i < nflags && rc == 0; i++) {
		if (strncmp(flags[i], "--mount=", 8) == 0)
			rc = check_mount(s, flags[i] + 8, type_raw,
			    sizeof(type_raw));
		x = process_word(flags[i], &s->args, &s->env);
		if (rc == 0 && x != NULL && strncmp(x, "--mount=", 8) == 0)
			rc = check_mount(s, x + 8, type_x, sizeof(type_x));
		free(x);
	}
	return rc;
}

/* COPY/ADD flags: --from=, raw and expanded. */
static int
check_copy_flags(struct state *s, char **flags, size_t nflags)
{
	size_t i;
	char *x;
	int rc = 0;

	for (i = 0; i < nflags && rc == 0; i++) {
		if (strncmp(flags[i], "--from=", 7) == 0 &&
		    image_ref_transport(flags[i] + 7))
			return refuse_transport(s, "COPY --from", flags[i] + 7);
		x = process_word(flags[i], &s->args, &s->env);
		if (x != NULL && strncmp(x, "--from=", 7) == 0 &&
		    image_ref_transport(x + 7))
			rc = refuse_transport(s, "COPY --from", x + 7);
		free(x);
	}
	return rc;
}

/*
 * imagebuilder's parseWords: words split at blanks outside quotes, the
 * quotes kept (ProcessWord removes them). Returns the count; words are
 * malloc'd into v (at most max).
 */
static size_t
parse_words(const char *p, char **v, size_t max)
{
	size_t n = 0;
	struct sb w = { 0 };
	char quote = 0;
	int in = 0, blank_ok = 0;

	for (;; p++) {
		char c = *p;

		if (!in && c != '\0' && is_space((unsigned char)c))
			continue;
		if (c == '\0' || (!quote && is_space((unsigned char)c))) {
			if ((blank_ok || w.len > 0) && n < max)
				v[n++] = xstrdup(sb_str(&w));
			w.len = 0;
			if (w.p)
				w.p[0] = '\0';
			in = blank_ok = 0;
			if (c == '\0')
				break;
			continue;
		}
		in = 1;
		if (quote) {
			if (c == quote)
				quote = 0;
		} else if (c == '\'' || c == '"') {
			quote = c;
			blank_ok = 1;
		}
		if (c == '\\' && p[1] != '\0') {
			sb_ch(&w, c);
			c = *++p;
		}
		sb_ch(&w, c);
	}
	free(w.p);
	return n;
}

/* imagebuilder's extractBuilderFlags; returns the args that follow. */
static const char *
extract_flags(const char *line, char **flags, size_t max, size_t *nflags)
{
	size_t pos, len = strlen(line);
	struct sb word = { 0 };
	int phase = 0, blank_ok = 0;	/* 0 spaces, 1 word, 2 quote */
	char quote = 0, ch = 0;
	const char *rest = "";

	*nflags = 0;
	for (pos = 0; pos <= len; pos++) {
		if (pos != len)
			ch = line[pos];
		if (phase == 0) {
			if (pos == len)
				break;
			if (is_space((unsigned char)ch))
				continue;
			if (ch != '-' || pos + 1 == len || line[pos + 1] != '-') {
				rest = line + pos;
				break;
			}
			phase = 1;
		}
		if (phase != 0 && pos == len) {
			if (!(word.len == 2 && memcmp(word.p, "--", 2) == 0) &&
			    (blank_ok || word.len > 0) && *nflags < max)
				flags[(*nflags)++] = xstrdup(sb_str(&word));
			break;
		}
		if (phase == 1) {
			if (is_space((unsigned char)ch)) {
				phase = 0;
				if (word.len == 2 && memcmp(word.p, "--", 2) == 0) {
					rest = line + pos;
					break;
				}
				if ((blank_ok || word.len > 0) && *nflags < max)
					flags[(*nflags)++] = xstrdup(sb_str(&word));
				word.len = 0;
				blank_ok = 0;
				continue;
			}
			if (ch == '\'' || ch == '"') {
				quote = ch;
				blank_ok = 1;
				phase = 2;
				continue;
			}
			if (ch == '\\') {
				if (pos + 1 == len)
					continue;
				ch = line[++pos];
			}
			sb_ch(&word, ch);
			continue;
		}
		/* phase 2: in quotes */
		if (ch == quote) {
			phase = 1;
			continue;
		}
		if (ch == '\\') {
			if (pos + 1 == len) {
				phase = 1;
				continue;
			}
			ch = line[++pos];
		}
		sb_ch(&word, ch);
	}
	free(word.p);
	return rest;
}

#define WORDS_MAX	256

static void
free_words(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
}

/* ARG name[=value] in the heading (global) or in a stage. */
static void
do_arg(struct state *s, const char *args)
{
	const cJSON *ba;
	char *w[WORDS_MAX], *x, *eq;
	size_t n = parse_words(args, w, WORDS_MAX), i;
	struct env *e = s->staged ? &s->args : &s->heading;

	for (i = 0; i < n; i++) {
		x = s->staged ? process_word(w[i], &s->args, &s->env) :
		    process_word(w[i], &s->heading, NULL);
		if (x == NULL)
			continue;
		eq = strchr(x, '=');
		if (eq != NULL)
			*eq = '\0';
		ba = s->prm->buildargs ?
		    cJSON_GetObjectItemCaseSensitive(s->prm->buildargs, x) : NULL;
		if (cJSON_IsString(ba))
			env_set(e, x, ba->valuestring);
		else if (eq != NULL)
			env_set(e, x, eq + 1);
		else if (s->staged && env_get(&s->heading, x) != NULL)
			env_set(e, x, env_get(&s->heading, x));
		else
			env_set(e, x, "");
		free(x);
	}
	free_words(w, n);
}

/* ENV k=v ... or ENV k v. */
static void
do_env(struct state *s, const char *args)
{
	char *w[WORDS_MAX], *x, *k;
	size_t n = parse_words(args, w, WORDS_MAX), i;
	const char *sp;

	if (n == 0)
		return;
	if (strchr(w[0], '=') == NULL) {
		sp = args + strcspn(args, " \t");
		sp += strspn(sp, " \t");
		x = process_word(sp, &s->args, &s->env);
		if (x != NULL)
			env_set(&s->env, w[0], x);
		free(x);
	} else {
		for (i = 0; i < n; i++) {
			k = xstrdup(w[i]);
			x = strchr(k, '=');
			if (x != NULL) {
				char *v;

				*x = '\0';
				v = process_word(x + 1, &s->args, &s->env);
				if (v != NULL)
					env_set(&s->env, k, v);
				free(v);
			}
			free(k);
		}
	}
	free_words(w, n);
}

void
df_bases_add(struct df_bases *b, const char *ref)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		if (strcmp(b->ref[i], ref) == 0)
			return;
	if (b->n == DF_BASES_MAX)
		b->over = 1;
	else
		b->ref[b->n++] = xstrdup(ref);
}

void
df_bases_free(struct df_bases *b)
{
	while (b->n > 0) {
		b->n--;
		free(b->ref[b->n]);
		free(b->cfg[b->n]);
		b->cfg[b->n] = NULL;
		b->cfg_bad[b->n] = 0;
		b->id[b->n][0] = '\0';
	}
	b->over = 0;
}

/*
 * FROM raw rest: the stage's base image, substituted with the heading's
 * ARGs, into p->bases unless it is "scratch" or an earlier stage's name;
 * then this stage's name (rest: "AS NAME", or nothing) is remembered.
 */
static void
base_add(struct state *s, const char *raw, const char *rest)
{
	struct df_bases *b = s->prm->bases;
	char *x = process_word(raw, &s->heading, NULL), *name;
	size_t i, n;

	if (x != NULL && x[0] != '\0' && strcasecmp(x, "scratch") != 0 &&
	    b != NULL) {
		for (i = 0; i < s->nstages && i < STAGES_MAX; i++)
			if (strcmp(s->stage[i], x) == 0)
				break;
		if (i == s->nstages || i == STAGES_MAX)
			df_bases_add(b, x);
	}
	free(x);
	if (s->nstages >= STAGES_MAX) {
		s->nstages++;
		return;
	}
	/* extractNameFromNode: the third word when the second is "as" */
	rest += strspn(rest, " \t\v\f\r");
	n = strcspn(rest, " \t\v\f\r");
	name = NULL;
	if (n == 2 && strncasecmp(rest, "as", 2) == 0) {
		rest += n;
		rest += strspn(rest, " \t\v\f\r");
		n = strcspn(rest, " \t\v\f\r");
		if (n > 0)
			name = xstrndup(rest, n);
	}
	if (name == NULL && asprintf(&name, "%zu", s->nstages) < 0)
		name = xstrdup("");
	s->stage[s->nstages++] = name;
}

/* One instruction: cmd (lower case), its flags and its arguments. */
static int
instruction(struct state *s, const char *line, int onbuild)
{
	char *flags[WORDS_MAX], *w[WORDS_MAX], cmd[16];
	const char *p = line, *args;
	size_t nflags = 0, n, i;
	int rc = 0;

	p += skip_space(p, strlen(p));
	n = 0;
	while (p[n] != '\0' && !is_space((unsigned char)p[n]))
		n++;
	if (n == 0 || n >= sizeof(cmd))
		return 0;
	for (i = 0; i < n; i++)
		cmd[i] = (char)tolower((unsigned char)p[i]);
	cmd[n] = '\0';
	args = extract_flags(p + n + skip_space(p + n, strlen(p + n)), flags,
	    WORDS_MAX, &nflags);
	if (strcmp(cmd, "from") == 0) {
		/* parseStringsWhitespaceDelimited: no quotes, blanks split */
		n = strcspn(args, " \t\v\f\r");
		w[0] = xstrndup(args, n);
		rc = check_ref(s, "FROM", w[0], 1);
		if (rc == 0 && !onbuild && !s->prm->triggers)
			base_add(s, w[0], args + n);
		free(w[0]);
		if (!onbuild) {
			s->staged = 1;
			env_free(&s->args);
			env_free(&s->env);
		}
	} else if (strcmp(cmd, "arg") == 0) {
		do_arg(s, args);
	} else if (strcmp(cmd, "env") == 0 && s->staged) {
		do_env(s, args);
	} else if (strcmp(cmd, "copy") == 0 || strcmp(cmd, "add") == 0) {
		rc = check_copy_flags(s, flags, nflags);
	} else if (strcmp(cmd, "run") == 0) {
		rc = check_run_flags(s, flags, nflags);
	} else if (strcmp(cmd, "onbuild") == 0 && !onbuild) {
		rc = instruction(s, args, 1);
	}
	free_words(flags, nflags);
	return rc;
}

/*
 * One reading: syntax_directive says whether "# syntax=" counts as a
 * directive (BuildKit's parser) or ends the directives (imagebuilder's).
 * *escape_out gets the escape token it used.
 */
static int
reading(const struct line *l, size_t nl, int syntax_directive,
    const struct df_params *prm, struct cg_refusal *r, char *escape_out)
{
	struct state s = { .prm = prm, .r = r };
	struct sb cur = { 0 };
	char esc = '\\', v;
	int done_directives = 0, rc = 0;
	size_t i = 0, k, n;

	s.origin = prm->origin != NULL ? prm->origin : "Dockerfile";
	if (prm->triggers) {
		/* a stage begun FROM the image: its Env is the stage's */
		s.staged = 1;
		for (k = 0; k < prm->nenv; k++) {
			const char *eq = strchr(prm->env[k], '=');
			char *name;

			if (eq == NULL || eq == prm->env[k])
				continue;
			name = xstrndup(prm->env[k], (size_t)(eq - prm->env[k]));
			env_set(&s.env, name, eq + 1);
			free(name);
		}
	}

	while (i < nl && rc == 0) {
		const char *p = l[i].p;

		n = l[i].n;
		k = skip_space(p, n);
		p += k;
		n -= k;
		if (!done_directives) {
			if (directive(p, n, "escape", &v)) {
				if (v != '\\' && v != '`')
					break;	/* the builder stops: nothing runs */
				esc = v;
			} else if (!(syntax_directive && directive(p, n,
			    "syntax", &v))) {
				done_directives = 1;
			}
		}
		s.lineno = ++i;
		if (n > 0 && p[0] == '#')
			n = 0;		/* a comment */
		cur.len = 0;
		sb_add(&cur, "", 0);
		if (!continued(p, &n, esc)) {
			if (n == 0)
				continue;
			sb_add(&cur, p, n);
		} else {
			sb_add(&cur, p, n);
			while (i < nl) {
				const char *q = l[i].p;
				size_t m = l[i].n, t = skip_space(q, m);
				int more;

				i++;
				if (m - t == 0 || q[t] == '#')
					continue;	/* empty continuation line */
				if (m > 0 && q[0] == '#')
					m = 0;
				more = continued(q, &m, esc);
				sb_add(&cur, q, m);
				if (!more)
					break;
			}
		}
		rc = instruction(&s, cur.p, 0);
	}
	*escape_out = esc;
	free(cur.p);
	for (k = 0; k < s.nstages && k < STAGES_MAX; k++)
		free(s.stage[k]);
	env_free(&s.heading);
	env_free(&s.args);
	env_free(&s.env);
	return rc;
}

int
dockerfile_check(const char *text, size_t len, const struct df_params *p,
    struct cg_refusal *r)
{
	struct line *l;
	size_t nl;
	char e1, e2;
	int rc;

	l = split_lines(text, len, &nl);
	rc = reading(l, nl, 0, p, r, &e1);
	if (rc == 0)
		rc = reading(l, nl, 1, p, r, &e2);
	free(l);
	return rc;
}
