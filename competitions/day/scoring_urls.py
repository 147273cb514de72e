"""The day's scoring pages and endpoints."""

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
