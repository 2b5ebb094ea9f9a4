package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
)

//go:embed static
var staticFS embed.FS

// route is one API endpoint; the table is the audit surface of the server
// (a test checks that only the listed endpoints write).
type route struct {
	method  string
	path    string
	writes  bool // changes files on disk or the active repository
	handler func(*Server, http.ResponseWriter, *http.Request)
}

// maxSearchBody bounds POST /api/search: a pasted CI log may be megabytes;
// the explorer trims it to its frames (explore.TrimLog).
const maxSearchBody = 8 << 20

var apiRoutes = []route{
	{"GET", "/api/status", false, (*Server).handleStatus},
	{"GET", "/api/search", false, (*Server).handleSearch},
	{"POST", "/api/search", false, (*Server).handleSearchPost},
	{"GET", "/api/tree", false, (*Server).handleTree},
	{"GET", "/api/find", false, (*Server).handleFind},
	{"GET", "/api/refs", false, (*Server).handleRefs},
	{"GET", "/api/symbols", false, (*Server).handleSymbols},
	{"GET", "/api/ast", false, (*Server).handleAST},
	{"GET", "/api/edges", false, (*Server).handleEdges},
	{"GET", "/api/file", false, (*Server).handleFile},
	{"POST", "/api/clone", true, (*Server).handleClone},
	{"POST", "/api/model", false, (*Server).handleModel},
	{"POST", "/api/apply", true, (*Server).handleApply},
	{"POST", "/api/undo", true, (*Server).handleUndo},
}

// pagePaths are the page's addresses (see app.js, "URLs are state"): each
// serves the page, which reads its state from the address.
var pagePaths = []string{"GET /{$}", "GET /search", "GET /file/{path...}", "GET /symbol/{path...}"}

func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	byPath := map[string][]route{}
	var paths []string
	for _, rt := range apiRoutes {
		if byPath[rt.path] == nil {
			paths = append(paths, rt.path)
		}
		byPath[rt.path] = append(byPath[rt.path], rt)
	}
	for _, p := range paths {
		rts := byPath[p]
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			var allow []string
			for _, rt := range rts {
				if r.Method == rt.method || (rt.method == http.MethodGet && r.Method == http.MethodHead) {
					if r.Method == http.MethodPost {
						limit := int64(maxBody)
						if p == "/api/search" {
							limit = maxSearchBody
						}
						r.Body = http.MaxBytesReader(w, r.Body, limit)
					}
					rt.handler(s, w, r)
					return
				}
				allow = append(allow, rt.method)
			}
			w.Header().Set("Allow", strings.Join(allow, ", "))
			writeError(w, http.StatusMethodNotAllowed, p+" takes "+strings.Join(allow, " or "))
		})
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: see docs/api.md")
	})
	sub, _ := fs.Sub(staticFS, "static")
	files := http.FileServerFS(sub)
	mux.Handle("GET /static/", http.StripPrefix("/static/", files))
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		http.ServeFileFS(w, r, sub, "favicon.svg")
	})
	page := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, sub, "index.html")
	}
	for _, p := range pagePaths {
		mux.HandleFunc(p, page)
	}
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

// Error is a Backend error with the HTTP status it maps to and, for a
// model that did not answer, how to start one. Errors that are not an
// *Error are 500.
type Error struct {
	Status   int
	Err      error
	Help     string
	Commands []string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// badRequest is a client mistake found by the web layer itself.
func badRequest(format string, args ...any) error {
	return &Error{Status: http.StatusBadRequest, Err: fmt.Errorf(format, args...)}
}

// fail writes err with its status code.
func fail(w http.ResponseWriter, err error) {
	status := http.StatusInternalServerError
	var we *Error
	if errors.As(err, &we) {
		status = we.Status
	}
	writeError(w, status, err.Error())
}

// intParam reads an optional integer query parameter.
func intParam(r *http.Request, name string, def int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, badRequest("%s=%q is not an integer", name, v)
	}
	return n, nil
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.b.Status(r.Context()))
}

func (s *Server) handleSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	k, err := intParam(r, "k", 10)
	if err != nil {
		fail(w, err)
		return
	}
	res, err := s.b.Search(r.Context(), q.Get("q"), q.Get("traceback"), k)
	reply(w, res, err)
}

// handleSearchPost is the search with its input in a JSON body: a pasted
// traceback or log is too long for a URL (browsers and proxies answer 431).
func (s *Server) handleSearchPost(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Q         string `json:"q"`
		Traceback string `json:"traceback"`
		K         int    `json:"k"`
	}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	res, err := s.b.Search(r.Context(), req.Q, req.Traceback, req.K)
	reply(w, res, err)
}

func (s *Server) handleTree(w http.ResponseWriter, r *http.Request) {
	res, err := s.b.Tree(r.Context())
	reply(w, res, err)
}

func (s *Server) handleFind(w http.ResponseWriter, r *http.Request) {
	res, err := s.b.FindSymbols(r.Context(), r.URL.Query().Get("q"))
	reply(w, res, err)
}

func (s *Server) handleRefs(w http.ResponseWriter, r *http.Request) {
	res, err := s.b.Refs(r.Context(), r.URL.Query().Get("path"))
	reply(w, res, err)
}

func (s *Server) handleSymbols(w http.ResponseWriter, r *http.Request) {
	res, err := s.b.Symbols(r.Context(), r.URL.Query().Get("path"))
	reply(w, res, err)
}

func (s *Server) handleAST(w http.ResponseWriter, r *http.Request) {
	var rng *[2]int
	if r.URL.Query().Has("start") || r.URL.Query().Has("end") {
		start, err1 := intParam(r, "start", 0)
		end, err2 := intParam(r, "end", 0)
		if err := errors.Join(err1, err2); err != nil {
			fail(w, err)
			return
		}
		rng = &[2]int{start, end}
	}
	res, err := s.b.AST(r.Context(), r.URL.Query().Get("path"), rng)
	reply(w, res, err)
}

func (s *Server) handleEdges(w http.ResponseWriter, r *http.Request) {
	id, err := intParam(r, "def", 0)
	if err != nil {
		fail(w, err)
		return
	}
	res, err := s.b.Edges(r.Context(), r.URL.Query().Get("path"), int64(id))
	reply(w, res, err)
}

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	start, err1 := intParam(r, "start", 0)
	end, err2 := intParam(r, "end", -1)
	if err := errors.Join(err1, err2); err != nil {
		fail(w, err)
		return
	}
	res, err := s.b.File(r.Context(), r.URL.Query().Get("path"), start, end)
	reply(w, res, err)
}

// decode reads a JSON request body into v, refusing unknown fields.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Err: fmt.Errorf("body over %d bytes: send less", tooBig.Limit)}
		}
		return badRequest("body: %v", err)
	}
	return nil
}

func (s *Server) handleClone(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Source string `json:"source"`
	}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := s.b.Clone(req.Source); err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusAccepted, s.b.Status(r.Context()))
}

// reply writes a backend call's result as JSON, or its error.
func reply(w http.ResponseWriter, v any, err error) {
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
