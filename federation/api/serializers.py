"""API representations of the registry. Public ones never carry private fields."""

from __future__ import annotations

from rest_framework import serializers

from federation.models import Club, Committee, Licence, Player, RoleAssignment, Season, Zone


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "start_date", "end_date"]


class ZoneSerializer(serializers.ModelSerializer):
    class Meta:
        model = Zone
        fields = ["id", "number", "name"]


class CommitteeSerializer(serializers.ModelSerializer):
    zone = serializers.IntegerField(source="zone.number", read_only=True)

    class Meta:
        model = Committee
        fields = ["id", "number", "name", "zone"]


class ClubSerializer(serializers.ModelSerializer):
    committee = serializers.IntegerField(source="committee.number", read_only=True)

    class Meta:
        model = Club
        fields = ["id", "number", "name", "city", "committee"]


class LicenceSerializer(serializers.ModelSerializer):
    """A licence as published: season, club and committee."""

    season = serializers.CharField(source="season.name")
    club_number = serializers.IntegerField(source="club.number")
    club_name = serializers.CharField(source="club.name")
    committee_number = serializers.IntegerField(source="club.committee.number")

    class Meta:
        model = Licence
        fields = ["season", "club_number", "club_name", "committee_number"]


class PublicLicenseeSerializer(serializers.Serializer):
    """One licensee of a season, as the federation publishes it."""

    licence_number = serializers.IntegerField(source="player.licence_number")
    last_name = serializers.CharField(source="player.last_name")
    first_name = serializers.CharField(source="player.first_name")
    season = serializers.CharField(source="season.name")
    club_number = serializers.IntegerField(source="club.number")
    club_name = serializers.CharField(source="club.name")
    committee_number = serializers.IntegerField(source="club.committee.number")


class PublicPlayerSerializer(serializers.ModelSerializer):
    licences = LicenceSerializer(many=True, read_only=True)

    class Meta:
        model = Player
        fields = ["licence_number", "last_name", "first_name", "licences"]


class PrivatePlayerSerializer(PublicPlayerSerializer):
    """For the player themselves and staff whose scope covers them."""

    class Meta(PublicPlayerSerializer.Meta):
        fields = [*PublicPlayerSerializer.Meta.fields, "birth_date", "email", "phone"]


class RoleSerializer(serializers.ModelSerializer):
    zone = serializers.IntegerField(source="zone.number", allow_null=True, read_only=True)
    committee = serializers.IntegerField(source="committee.number", allow_null=True, read_only=True)
    club = serializers.IntegerField(source="club.number", allow_null=True, read_only=True)

    class Meta:
        model = RoleAssignment
        fields = ["role", "zone", "committee", "club"]


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    licence_number = serializers.IntegerField(source="player.licence_number", allow_null=True)
    roles = RoleSerializer(many=True)
