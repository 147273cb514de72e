"""The day's entry pages and endpoints."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
