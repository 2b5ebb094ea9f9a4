package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// modelDelta is the data of a "delta" event: reply text as it arrives.
type modelDelta struct {
	Text string `json:"text"`
}

// modelError is the data of an "error" event: what failed and, for a
// model that did not answer, how to start one.
type modelError struct {
	Error    string   `json:"error"`
	Help     string   `json:"help,omitempty"`
	Commands []string `json:"commands,omitempty"`
}

// handleModel streams the model's reply as server-sent events:
//
//	event: delta   data: {"text": "..."}          as the reply arrives
//	event: result  data: app.ModelProposal        once, at the end
//	event: error   data: {"error", "help", "commands"}
//
// It writes nothing to disk.
func (s *Server) handleModel(w http.ResponseWriter, r *http.Request) {
	var req struct {
		DefID int64  `json:"def_id"`
		Task  string `json:"task"`
	}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	if err := s.b.CheckDef(r.Context(), req.DefID); err != nil {
		fail(w, err)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming is not supported by this connection")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(event string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			b, _ = json.Marshal(map[string]string{"error": err.Error()})
			event = "error"
		}
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		fl.Flush()
	}
	fl.Flush()
	p, err := s.b.Propose(r.Context(), req.DefID, req.Task, func(text string) {
		send("delta", modelDelta{Text: text})
	})
	if err != nil {
		ev := modelError{Error: err.Error()}
		var we *Error
		if errors.As(err, &we) {
			ev.Help, ev.Commands = we.Help, we.Commands
		}
		send("error", ev)
		return
	}
	send("result", p)
}

func (s *Server) handleApply(w http.ResponseWriter, r *http.Request) {
	var req struct {
		DefID       int64  `json:"def_id"`
		Replacement string `json:"replacement"`
		FileHash    string `json:"file_hash"`
		Task        string `json:"task"`
	}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	res, err := s.b.Apply(r.Context(), req.DefID, req.Replacement, req.FileHash, req.Task)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) handleUndo(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if err := decode(r, &req); err != nil {
		fail(w, err)
		return
	}
	res, err := s.b.Undo(r.Context())
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
