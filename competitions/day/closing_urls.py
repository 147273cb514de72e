"""The day's closing pages and endpoints."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
