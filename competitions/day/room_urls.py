"""The day's room pages and endpoints."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
