package web

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
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

var apiRoutes = []route{
	{"GET", "/api/status", false, (*Server).handleStatus},
	{"GET", "/api/search", false, (*Server).handleSearch},
	{"GET", "/api/symbols", false, (*Server).handleSymbols},
	{"GET", "/api/ast", false, (*Server).handleAST},
	{"GET", "/api/edges", false, (*Server).handleEdges},
	{"GET", "/api/file", false, (*Server).handleFile},
	{"POST", "/api/clone", true, (*Server).handleClone},
	{"POST", "/api/model", false, (*Server).handleModel},
	{"POST", "/api/apply", true, (*Server).handleApply},
	{"POST", "/api/undo", true, (*Server).handleUndo},
}

func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	for _, rt := range apiRoutes {
		rt := rt
		mux.HandleFunc(rt.path, func(w http.ResponseWriter, r *http.Request) {
			if r.Method != rt.method && !(rt.method == http.MethodGet && r.Method == http.MethodHead) {
				w.Header().Set("Allow", rt.method)
				writeError(w, http.StatusMethodNotAllowed, rt.path+" takes "+rt.method)
				return
			}
			rt.handler(s, w, r)
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
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		http.ServeFileFS(w, r, sub, "index.html")
	})
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

// Error is a Backend error with the HTTP status it maps to and optional
// details for the client (e.g. how to start a model). Errors that are not
// an *Error are 500.
type Error struct {
	Status int
	Err    error
	Detail map[string]any
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
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) handleSymbols(w http.ResponseWriter, r *http.Request) {
	defs, err := s.b.Symbols(r.Context(), r.URL.Query().Get("path"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, defs)
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
	n, err := s.b.AST(r.Context(), r.URL.Query().Get("path"), rng)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, n)
}

func (s *Server) handleEdges(w http.ResponseWriter, r *http.Request) {
	id, err := intParam(r, "def", 0)
	if err != nil {
		fail(w, err)
		return
	}
	e, err := s.b.Edges(r.Context(), r.URL.Query().Get("path"), int64(id))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, e)
}

func (s *Server) handleFile(w http.ResponseWriter, r *http.Request) {
	start, err1 := intParam(r, "start", 0)
	end, err2 := intParam(r, "end", -1)
	if err := errors.Join(err1, err2); err != nil {
		fail(w, err)
		return
	}
	f, err := s.b.File(r.Context(), r.URL.Query().Get("path"), start, end)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, f)
}

// decode reads a JSON request body into v, refusing unknown fields.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
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
