package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"annotate/internal/domain"
	"annotate/internal/webhooks"
)

// apiWebhook is a registered webhook; Secret is set only in the answer
// that creates it.
type apiWebhook struct {
	ID        int64    `json:"id"`
	URL       string   `json:"url"`
	Events    []string `json:"events"`
	CreatedAt string   `json:"created_at"`
	Secret    string   `json:"secret,omitempty"`
}

// apiDelivery is one delivery of a webhook and how it went.
type apiDelivery struct {
	ID            int64  `json:"id"`
	Event         string `json:"event"`
	Payload       string `json:"payload"`
	Status        string `json:"status"`
	Attempts      int    `json:"attempts"`
	LastStatus    int    `json:"last_status"`
	LastError     string `json:"last_error"`
	NextAttemptAt string `json:"next_attempt_at"`
	CreatedAt     string `json:"created_at"`
	DeliveredAt   string `json:"delivered_at"`
}

// apiWebhookSpec is the body that registers a webhook.
type apiWebhookSpec struct {
	URL    string   `json:"url"`
	Events []string `json:"events"`
}

func (s *Server) apiWebhooks(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	hooks, err := s.webhooks.Webhooks(c.Request().Context(), a.project.ID)
	if err != nil {
		return err
	}
	page, err := paginate(c, hooks, func(w webhooks.Webhook) int64 { return w.ID })
	if err != nil {
		return err
	}
	out := make([]apiWebhook, 0, len(page))
	for _, w := range page {
		out = append(out, apiWebhook{ID: w.ID, URL: w.URL, Events: w.Events, CreatedAt: w.CreatedAt})
	}
	return c.JSON(http.StatusOK, out)
}

// apiCreateWebhook registers a URL for round.complete and gold.decided
// events; the answer carries the signing secret, shown only then.
func (s *Server) apiCreateWebhook(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	var in apiWebhookSpec
	if err := decodeJSON(c, &in); err != nil {
		return err
	}
	url := strings.TrimSpace(in.URL)
	var w *webhooks.Webhook
	err = webhooks.ValidateWebhookURL(url)
	if err == nil {
		if perr := s.hookPolicy.CheckURL(url); perr != nil {
			err = domain.Errorf(domain.EInvalid, "url: %v", perr)
		}
	}
	if err == nil {
		w, err = s.webhooks.CreateWebhook(c.Request().Context(), a.project.ID, currentUser(c).ID, url, in.Events)
	}
	if domain.ErrorCode(err) == domain.EInvalid {
		field, msg, _ := strings.Cut(domain.ErrorMessage(err), ": ")
		if msg == "" {
			field, msg = "", domain.ErrorMessage(err)
		}
		p := problemf(http.StatusUnprocessableEntity, "invalid-webhook", "The webhook was not registered.")
		p.Errors = []FieldError{{Field: field, Message: msg}}
		return p
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, apiPrefix+"/projects/"+a.project.Slug+"/webhooks/"+strconv.FormatInt(w.ID, 10)+"/deliveries")
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, apiWebhook{ID: w.ID, URL: w.URL, Events: w.Events, CreatedAt: w.CreatedAt, Secret: w.Secret})
}

func (s *Server) apiDeleteWebhook(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	id, err := pathID(c, "wid", "webhook")
	if err != nil {
		return err
	}
	if err := s.webhooks.DeleteWebhook(c.Request().Context(), a.project.ID, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// apiWebhookDeliveries lists a webhook's deliveries with their status,
// newest first.
func (s *Server) apiWebhookDeliveries(c echo.Context) error {
	a, err := s.apiAccess(c, true)
	if err != nil {
		return err
	}
	id, err := pathID(c, "wid", "webhook")
	if err != nil {
		return err
	}
	ds, err := s.webhooks.WebhookDeliveries(c.Request().Context(), a.project.ID, id)
	if err != nil {
		return err
	}
	out := make([]apiDelivery, 0, len(ds))
	for _, d := range ds {
		out = append(out, apiDelivery{ID: d.ID, Event: d.Event, Payload: d.Payload, Status: d.Status, Attempts: d.Attempts, LastStatus: d.LastStatus,
			LastError: d.LastError, NextAttemptAt: d.NextAttemptAt, CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt})
	}
	return c.JSON(http.StatusOK, out)
}
