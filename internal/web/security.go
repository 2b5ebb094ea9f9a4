package web

import (
	"crypto/subtle"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

const (
	cookieName = "grit_token"
	csp        = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
		"base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
	maxBody = 1 << 20 // bytes of a POST body
)

// secure wraps h with the checks every request passes, in order: Host
// allowlist (403), security headers, token exchange on a page's "?token=",
// token on /api/ and the pages (401), and for POST a matching Origin and a
// JSON body (403, 415). Routes bound POST bodies (api.go).
func (s *Server) secure(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r.Host) {
			host, _, err := net.SplitHostPort(r.Host)
			if err != nil {
				host = r.Host
			}
			http.Error(w, fmt.Sprintf("grit explore: host %q not allowed: open the URL grit explore printed, or restart it with --allow-host %s", r.Host, host), http.StatusForbidden)
			return
		}
		hdr := w.Header()
		hdr.Set("Content-Security-Policy", csp)
		hdr.Set("X-Content-Type-Options", "nosniff")
		hdr.Set("X-Frame-Options", "DENY")
		hdr.Set("Referrer-Policy", "no-referrer")
		hdr.Set("Cross-Origin-Opener-Policy", "same-origin")
		hdr.Set("Cross-Origin-Resource-Policy", "same-origin")

		if strings.HasPrefix(r.URL.Path, "/static/") || r.URL.Path == "/favicon.ico" {
			h.ServeHTTP(w, r) // public, embedded assets
			return
		}
		if isPage(r.URL.Path) && r.URL.Query().Has("token") {
			s.exchange(w, r)
			return
		}
		if !s.authorized(r) {
			if strings.HasPrefix(r.URL.Path, "/api/") {
				writeError(w, http.StatusUnauthorized, "missing or wrong token: open the URL grit explore printed, or send Authorization: Bearer <token>")
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusUnauthorized)
			w.Write(unauthorizedPage)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			if !s.originAllowed(r) {
				writeError(w, http.StatusForbidden, "cross-origin request refused: the Origin header must be this server's")
				return
			}
			if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, "a POST body must be application/json")
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// isPage reports whether p is one of the page's addresses (pagePaths), the
// only places a token in the query is exchanged for the cookie.
func isPage(p string) bool {
	return p == "/" || p == "/search" || strings.HasPrefix(p, "/file/") || strings.HasPrefix(p, "/symbol/")
}

// hostAllowed checks the Host header against the allowlist and the port.
func (s *Server) hostAllowed(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil || port != s.port || s.port == "" {
		return false
	}
	return s.hosts[strings.ToLower(host)]
}

// originAllowed requires Origin to be exactly this server as the browser
// reached it (its Host was already checked), and refuses cross-site fetches.
func (s *Server) originAllowed(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	o := r.Header.Get("Origin")
	return o != "" && o == "http://"+r.Host
}

// authorized accepts the token from the cookie or an Authorization: Bearer header.
func (s *Server) authorized(r *http.Request) bool {
	tok := ""
	if c, err := r.Cookie(cookieName); err == nil {
		tok = c.Value
	}
	if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") {
		tok = strings.TrimPrefix(a, "Bearer ")
	}
	return tok != "" && subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1
}

// exchange turns "PAGE?token=T" (any page address: "/", "/file/…") into a
// SameSite=Strict HttpOnly cookie and redirects to the same address without
// the token, so that it leaves the address bar and history and a shared
// link opens the same view.
func (s *Server) exchange(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(s.token)) != 1 {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		w.Write(unauthorizedPage)
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name:     cookieName,
		Value:    s.token,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	q := r.URL.Query()
	q.Del("token")
	to := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	http.Redirect(w, r, to.String(), http.StatusSeeOther)
}

var unauthorizedPage = []byte(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>grit explore: token needed</title>
<link rel="stylesheet" href="/static/style.css"></head>
<body class="gate"><main class="gate-box"><h1>grit explore</h1>
<p>This page needs the access token of this run. Open the URL that <code>grit explore</code> printed in your terminal (it ends in <code>?token=…</code>).</p>
</main></body></html>
`)
