package web

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"
)

// List pages: a JSON array in id order, and the next page's address in a
// Link header (rel="next") with an opaque cursor, until the last page.
const (
	defaultPageSize = 100
	maxPageSize     = 500
)

// paginate cuts one page out of items by the request's cursor and limit
// and sets the Link header of the next page.
func paginate[T any](c echo.Context, items []T, id func(T) int64) ([]T, error) {
	limit := defaultPageSize
	if q := c.QueryParam("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > maxPageSize {
			return nil, invalidParam("limit", "limit must be a whole number from 1 to %d", maxPageSize)
		}
		limit = n
	}
	var after int64
	if cur := c.QueryParam("cursor"); cur != "" {
		raw, err := base64.RawURLEncoding.DecodeString(cur)
		if err == nil {
			after, err = strconv.ParseInt(string(raw), 10, 64)
		}
		if err != nil || after < 0 {
			return nil, invalidParam("cursor", "cursor is not one this server gave out")
		}
	}
	items = slices.Clone(items)
	slices.SortStableFunc(items, func(a, b T) int { return cmpInt(id(a), id(b)) })
	start, _ := slices.BinarySearchFunc(items, after+1, func(x T, t int64) int { return cmpInt(id(x), t) })
	end := min(start+limit, len(items))
	if end < len(items) {
		q := c.Request().URL.Query()
		q.Set("cursor", base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatInt(id(items[end-1]), 10))))
		q.Set("limit", strconv.Itoa(limit))
		next := url.URL{Path: c.Request().URL.Path, RawQuery: q.Encode()}
		c.Response().Header().Set("Link", "<"+next.String()+`>; rel="next"`)
	}
	return items[start:end], nil
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// invalidParam is the problem of a bad query parameter or body field.
func invalidParam(field, format string, args ...any) *Problem {
	p := problemf(http.StatusUnprocessableEntity, "invalid-parameter", format, args...)
	p.Errors = []FieldError{{Field: field, Message: p.Detail}}
	return p
}
